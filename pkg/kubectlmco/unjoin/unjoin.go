// Package unjoin is `kubectl mco unjoin`: it removes a member cluster from
// mco through the join library and, given the member's kubeconfig, what
// join created in the member.
package unjoin

import (
	"context"
	"fmt"
	"io"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	joinlib "github.com/mco-org/mco/pkg/join"
	"github.com/mco-org/mco/pkg/kubectlmco/clients"
)

// Options name the Cluster to remove.
type Options struct {
	Name string
	// Wait bounds the wait for mco to withdraw what it propagated to the
	// member and let the Cluster go (default a minute).
	Wait time.Duration
}

// Run deletes the Cluster on mco and its credentials there and, when
// member is not nil, mco's identities in the member. Progress goes to out.
func Run(ctx context.Context, mco, member *rest.Config, o Options, out io.Writer) error {
	mco, mcoWatch := clients.Watched(mco, "mco")
	mcoKube, mcoClient, err := clients.MCO(mco)
	if err != nil {
		return err
	}
	c := joinlib.Clients{MCOKube: mcoKube, MCO: mcoClient}
	var memberWatch *clients.Watch
	if member != nil {
		member, memberWatch = clients.Watched(clients.WithMemberTimeout(member), "member")
		if c.Member, err = kubernetes.NewForConfig(member); err != nil {
			return fmt.Errorf("client of the member: %w", err)
		}
	}
	err = run(ctx, c, o, out)
	if memberWatch != nil {
		err = memberWatch.Explain(ctx, err, "unjoining needs cluster-admin rights in the member")
	}
	return mcoWatch.Explain(ctx, err, "")
}

// run unjoins with the given clients; c.Member may be nil.
func run(ctx context.Context, c joinlib.Clients, o Options, out io.Writer) error {
	if c.Member == nil {
		fmt.Fprintf(out, "No --cluster-kubeconfig given: only mco's side is cleaned; mco's namespace %s, service accounts and cluster roles stay in the member\n",
			joinlib.Namespace)
	}
	err := joinlib.Unjoin(ctx, c, joinlib.UnjoinOptions{
		Name:     o.Name,
		Timeout:  o.Wait,
		Progress: func(step string) { fmt.Fprintf(out, "- %s\n", step) },
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Cluster %s unjoined\n", o.Name)
	return nil
}
