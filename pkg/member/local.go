package member

import (
	"context"
	"fmt"

	"k8s.io/client-go/rest"
)

// Local is the Source of mco-agent: the one cluster the agent runs in,
// reached with the agent's own credentials in it.
type Local struct {
	name    string
	clients *Clients
}

var _ Source = &Local{}

// NewLocal returns the Source of cluster name, reached with cfg. Its
// informers run until ctx ends.
func NewLocal(ctx context.Context, name string, cfg *rest.Config) (*Local, error) {
	c, err := newClients(ctx, name, rest.CopyConfig(cfg))
	if err != nil {
		return nil, err
	}
	return &Local{name: name, clients: c}, nil
}

// Reaches is true for the agent's own cluster only.
func (l *Local) Reaches(cluster string) bool { return cluster == l.name }

// Get returns the clients of the agent's cluster.
func (l *Local) Get(cluster string) (*Clients, error) {
	if cluster != l.name {
		return nil, fmt.Errorf("cluster %s is not this agent's (%s)", cluster, l.name)
	}
	return l.clients, nil
}

// Forget is a no-op: the agent's clients live as long as it does.
func (l *Local) Forget(string) {}

// OnChange is a no-op: the agent's clients are never replaced.
func (l *Local) OnChange(func(string)) {}

// HasSynced is true: nothing is read to build the clients.
func (l *Local) HasSynced() bool { return true }
