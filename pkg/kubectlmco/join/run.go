// Package join is `kubectl mco join`: it registers a member cluster with
// mco in push mode through the join library, printing each step, and waits
// until mco reports the Cluster Ready. Run is the same code path for other
// Go code (local-up registers its members with it).
package join

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	joinlib "github.com/mco-org/mco/pkg/join"
	"github.com/mco-org/mco/pkg/kubectlmco/clients"
)

// Options describe the member being joined. Its API endpoint and CA come
// from the member's rest.Config.
type Options struct {
	// Name of the Cluster on mco.
	Name             string
	Provider, Region string
	Zones            []string
	Labels           map[string]string
	// UseTokenRequest takes mco's tokens from the member's TokenRequest API,
	// for members without a token controller (no kube-controller-manager).
	UseTokenRequest bool
	// Wait, when positive, is how long to wait for mco to report the
	// Cluster Ready; zero returns as soon as the Cluster is written.
	Wait time.Duration
}

// forbiddenHint tells what join needs when the member denies a request.
const forbiddenHint = "joining needs cluster-admin rights in the member"

// Run joins the member reached with member to the mco reached with mco,
// printing progress to out, and returns the Cluster (Ready when o.Wait is
// positive). Errors reaching either side name the server and the cause.
func Run(ctx context.Context, mco, member *rest.Config, o Options, out io.Writer) (*clusterv1alpha1.Cluster, error) {
	ep, err := endpointOf(member)
	if err != nil {
		return nil, err
	}
	mco, mcoWatch := clients.Watched(mco, "mco")
	member, memberWatch := clients.Watched(clients.WithMemberTimeout(member), "member")
	mcoKube, mcoClient, err := clients.MCO(mco)
	if err != nil {
		return nil, err
	}
	memberKube, err := kubernetes.NewForConfig(member)
	if err != nil {
		return nil, fmt.Errorf("client of the member: %w", err)
	}
	cluster, err := run(ctx, joinlib.Clients{MCOKube: mcoKube, MCO: mcoClient, Member: memberKube}, ep, o, out)
	err = memberWatch.Explain(ctx, err, forbiddenHint)
	return cluster, mcoWatch.Explain(ctx, err, "")
}

// endpoint is how mco will reach the member.
type endpoint struct {
	url      string
	ca       []byte
	insecure bool
}

// endpointOf reads the member's server URL and CA from its rest.Config.
func endpointOf(cfg *rest.Config) (endpoint, error) {
	host := strings.TrimSuffix(cfg.Host, "/")
	if host == "" {
		return endpoint{}, errors.New("the member's kubeconfig context names no server")
	}
	if !strings.Contains(host, "://") {
		host = "https://" + host
	}
	ep := endpoint{url: host, ca: cfg.CAData, insecure: cfg.Insecure}
	if len(ep.ca) == 0 && cfg.CAFile != "" {
		ca, err := os.ReadFile(cfg.CAFile)
		if err != nil {
			return endpoint{}, fmt.Errorf("read the member's certificate-authority: %w", err)
		}
		ep.ca = ca
	}
	return ep, nil
}

// run joins with the given clients, printing each step as "[n/total] ...".
func run(ctx context.Context, c joinlib.Clients, ep endpoint, o Options, out io.Writer) (*clusterv1alpha1.Cluster, error) {
	steps := &progress{out: out, total: joinSteps}
	if o.Wait > 0 {
		steps.total++
	}
	cluster, err := joinlib.Join(ctx, c, joinlib.Options{
		Name:                        o.Name,
		APIEndpoint:                 ep.url,
		CABundle:                    ep.ca,
		InsecureSkipTLSVerification: ep.insecure,
		Provider:                    o.Provider,
		Region:                      o.Region,
		Zones:                       o.Zones,
		Labels:                      o.Labels,
		UseTokenRequest:             o.UseTokenRequest,
		Progress:                    steps.print,
	})
	if err != nil {
		return nil, err
	}
	if o.Wait <= 0 {
		fmt.Fprintf(out, "Cluster %s joined; mco reports it Ready once mco-controller-manager has checked it (kubectl mco get clusters)\n", o.Name)
		return cluster, nil
	}
	steps.print(fmt.Sprintf("Waiting up to %s for mco to report cluster %s Ready", o.Wait, o.Name))
	cluster, err = joinlib.WaitReady(ctx, c.MCO, o.Name, o.Wait)
	if err != nil {
		return cluster, err
	}
	fmt.Fprintf(out, "Cluster %s is Ready: %s\n", o.Name, describe(cluster))
	return cluster, nil
}

// joinSteps is how many steps the join library reports.
const joinSteps = 5

// progress numbers the steps it prints.
type progress struct {
	out      io.Writer
	n, total int
}

func (p *progress) print(step string) {
	p.n++
	p.total = max(p.total, p.n)
	fmt.Fprintf(p.out, "[%d/%d] %s\n", p.n, p.total, step)
}

// describe states a Cluster's Kubernetes version and nodes.
func describe(c *clusterv1alpha1.Cluster) string {
	version := c.Status.KubernetesVersion
	if version == "" {
		version = "unknown version"
	}
	nodes := "no node summary yet"
	if s := c.Status.NodeSummary; s != nil {
		nodes = fmt.Sprintf("%d/%d nodes Ready", s.ReadyNum, s.TotalNum)
	}
	return fmt.Sprintf("Kubernetes %s, %s", version, nodes)
}
