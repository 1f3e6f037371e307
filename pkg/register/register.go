// Package register registers a member cluster with mco in Pull mode and
// removes it again, as karmadactl's token create, register and unregister
// do: an admin issues a short-lived bootstrap credential for one cluster;
// on the member's side it is exchanged for the agent's own, longer-lived
// credential, which goes into a Secret in the member with the agent's
// Deployment; unregister deletes the Cluster and revokes the credential.
//
// Credentials are ServiceAccount tokens of mco (TokenRequest), one
// ServiceAccount per cluster: they expire, the agent renews its own before
// it does, and deleting the ServiceAccount revokes every token at once.
// mco issues them already; certificates would need certificates.k8s.io
// served on mco with a signer and an approver, for the same outcome.
package register

import (
	"context"
	"fmt"
	"os"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/mco-org/mco/pkg/agent/access"
	"github.com/mco-org/mco/pkg/kubeconfig"
)

// DefaultBootstrapTTL is how long a bootstrap credential lasts.
const DefaultBootstrapTTL = time.Hour

// DefaultCredentialTTL is how long the agent's own credential lasts; the
// agent renews it after 80% of that.
const DefaultCredentialTTL = 30 * 24 * time.Hour

// Bootstrap is what `kubectl mco token create` hands to the member's admin.
type Bootstrap struct {
	Server  string
	CA      []byte
	Token   string
	Expires time.Time
}

// CreateToken prepares cluster's agent identity on mco (reached as an
// admin through cfg) and issues a bootstrap credential of it lasting ttl.
func CreateToken(ctx context.Context, cfg *rest.Config, cluster string, ttl time.Duration) (*Bootstrap, error) {
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("client of mco: %w", err)
	}
	if err := access.Ensure(ctx, kube, cluster); err != nil {
		return nil, err
	}
	token, expires, err := access.Token(ctx, kube, cluster, ttl)
	if err != nil {
		return nil, err
	}
	ca, err := caOf(cfg)
	if err != nil {
		return nil, err
	}
	return &Bootstrap{Server: cfg.Host, CA: ca, Token: token, Expires: expires}, nil
}

// WriteKubeconfig writes the bootstrap credential as a kubeconfig.
func (b *Bootstrap) WriteKubeconfig(path string) error {
	return kubeconfig.WriteToken(path, "mco", b.Server, b.CA, b.Token)
}

// caOf is the PEM CA cfg trusts.
func caOf(cfg *rest.Config) ([]byte, error) {
	if len(cfg.CAData) > 0 {
		return cfg.CAData, nil
	}
	if cfg.CAFile == "" {
		return nil, fmt.Errorf("the kubeconfig of mco names no CA to hand to the agent")
	}
	ca, err := os.ReadFile(cfg.CAFile)
	if err != nil {
		return nil, fmt.Errorf("read CA of mco: %w", err)
	}
	return ca, nil
}
