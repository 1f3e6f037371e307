// Package aggregated runs mco-apiserver in aggregated mode behind a host
// cluster's kube-apiserver, as a platform team would next to an existing
// cluster: the host (a real kube-apiserver with the aggregation layer on,
// routing to Services rather than endpoints) reaches mco-apiserver through
// APIServices and an ExternalName Service resolving to loopback; mco's
// scheduler and controller-manager talk to the host only; one bare member
// cluster is joined with the real kubectl-mco.
package aggregated

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mco-org/mco/pkg/registry/karmada"
	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// setup is the running installation. mco-apiserver, mco-scheduler and
// mco-controller-manager run as the host ServiceAccounts the chart's
// aggregated mode binds, with the chart's roles.
type setup struct {
	binDir string
	env    *localcluster.Env
	// host is the host cluster (its Kubeconfig is the admin's); mco is mco-apiserver
	// itself, reached directly.
	host *localcluster.Member
	mco  *localcluster.Component
	reg  localcluster.Registration
	// alice is a kubeconfig of the host for a user without any role.
	alice string
}

var agg setup

// aliceToken is the bearer token of the user alice in the host's token file.
const aliceToken = "alice-token-0123456789"

func TestMain(m *testing.M) {
	os.Exit(localcluster.RunSuite(m, "aggregated", bringUp))
}

// bringUp starts the host and member1, mco-apiserver behind the host,
// registers it there, starts the scheduler and controller-manager against
// the host and joins member1.
func bringUp(ctx context.Context, dir, binDir string) (*localcluster.Env, string, error) {
	agg.binDir = binDir
	if err := start(ctx, dir); err != nil {
		return agg.env, "", err
	}
	return agg.env, "host, member1 and mco-apiserver behind the host's aggregator", nil
}

func start(ctx context.Context, dir string) error {
	aggregator, err := localcluster.AggregatorArgs(filepath.Join(dir, "front-proxy"))
	if err != nil {
		return err
	}
	tokens := filepath.Join(dir, "host-tokens.csv")
	if err := os.WriteFile(tokens, []byte(aliceToken+",alice,alice-uid\n"), 0o600); err != nil {
		return err
	}
	agg.env, err = localcluster.Up(ctx, localcluster.Options{
		Dir: dir, BinDir: agg.binDir, BareMembers: true,
		Members: []localcluster.MemberSpec{
			{Name: "host", APIServerArgs: append(aggregator, "--token-auth-file="+tokens)},
			{Name: "member1"},
		},
	})
	if err != nil {
		return err
	}
	agg.host = agg.env.Member("host")
	agg.reg = localcluster.Registration{Namespace: namespace, Service: "mco-apiserver", Address: "127.0.0.1",
		CAFile: filepath.Join(dir, "mco", "pki", "ca.crt"), GroupVersions: servedGroupVersions()}
	identities, err := componentIdentities(ctx, dir)
	if err != nil {
		return err
	}
	logDir := filepath.Join(dir, "logs", "mco")
	agg.mco, err = localcluster.StartAggregatedAPIServer(ctx, agg.binDir, filepath.Join(dir, "mco"), logDir,
		identities["apiserver"], "--tls-sans="+agg.reg.ServiceName())
	if agg.mco != nil {
		agg.env.MCO = &localcluster.ControlPlane{APIServer: agg.mco.Process, Port: agg.mco.Port}
	}
	if err != nil {
		return err
	}
	agg.reg.Port = agg.mco.Port
	manifest, err := agg.reg.Manifest()
	if err != nil {
		return err
	}
	if out, err := hostKubectl("", manifest, "apply", "-f", "-"); err != nil {
		return fmt.Errorf("register mco-apiserver in the host: %w\n%s", err, out)
	}
	for _, gv := range agg.reg.GroupVersions {
		name := "apiservice/" + gv.Version + "." + gv.Group
		if out, err := hostKubectl("", "", "wait", "--for=condition=Available", "--timeout=60s", name); err != nil {
			return fmt.Errorf("%s: %w\n%s", name, err, out)
		}
	}
	sched, err := localcluster.StartScheduler(ctx, agg.binDir, identities["scheduler"], logDir)
	if sched != nil {
		agg.env.MCO.Scheduler, agg.env.MCO.SchedulerPort = sched.Process, sched.Port
	}
	if err != nil {
		return err
	}
	cm, err := localcluster.StartControllerManager(ctx, agg.binDir, identities["controller-manager"], logDir,
		"--cluster-status-update-frequency=2s")
	if cm != nil {
		agg.env.MCO.ControllerManager, agg.env.MCO.ControllerManagerPort = cm.Process, cm.Port
	}
	if err != nil {
		return err
	}
	member := agg.env.Member("member1")
	join := exec.CommandContext(ctx, filepath.Join(agg.binDir, "kubectl-mco"), "join", "member1",
		"--kubeconfig", agg.host.Kubeconfig, "--cluster-kubeconfig", member.Kubeconfig, "--token-request", "--wait", "2m")
	if out, err := join.CombinedOutput(); err != nil {
		return fmt.Errorf("kubectl mco join through the host: %w\n%s", err, out)
	}
	agg.alice = filepath.Join(dir, "alice.kubeconfig")
	return writeTokenKubeconfig(agg.alice, agg.host.URL(), agg.env.PKI.CACert, aliceToken)
}

// namespace is where the chart would be installed: the Service the
// APIServices name and the components' ServiceAccounts live there.
const namespace = "mco-system"

// componentIdentities gives each component the host identity the chart
// gives it: the chart's aggregated-mode RBAC is applied to the host, and
// each component gets a kubeconfig with a token of its ServiceAccount, so
// that what the components do on the host is held to those roles.
func componentIdentities(ctx context.Context, dir string) (map[string]string, error) {
	chart := filepath.Join("..", "..", "charts", "mco")
	rbac, err := exec.CommandContext(ctx, filepath.Join(agg.binDir, "helm"), "template", "mco", chart, "--namespace", namespace,
		"--set", "mode=aggregated", "--show-only", "templates/aggregated.yaml").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("helm template: %w\n%s", err, rbac)
	}
	if out, err := hostKubectl("", "", "create", "namespace", namespace); err != nil {
		return nil, fmt.Errorf("%w\n%s", err, out)
	}
	if out, err := hostKubectl("", string(rbac), "apply", "-f", "-"); err != nil {
		return nil, fmt.Errorf("apply the chart's RBAC: %w\n%s", err, out)
	}
	out := map[string]string{}
	for _, c := range []string{"apiserver", "scheduler", "controller-manager"} {
		sa := "mco-" + c
		if o, err := hostKubectl("", "", "-n", namespace, "create", "serviceaccount", sa); err != nil {
			return nil, fmt.Errorf("%w\n%s", err, o)
		}
		token, err := hostKubectl("", "", "-n", namespace, "create", "token", sa, "--duration=2h")
		if err != nil {
			return nil, fmt.Errorf("token of %s: %w\n%s", sa, err, token)
		}
		out[c] = filepath.Join(dir, sa+".kubeconfig")
		if err := writeTokenKubeconfig(out[c], agg.host.URL(), agg.env.PKI.CACert, strings.TrimSpace(token)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// servedGroupVersions are the API versions mco-apiserver serves in
// aggregated mode: the Karmada groups.
func servedGroupVersions() []schema.GroupVersion {
	var out []schema.GroupVersion
	seen := map[schema.GroupVersion]bool{}
	for _, r := range karmada.Resources() {
		if gv := r.GroupVersion(); !seen[gv] {
			seen[gv] = true
			out = append(out, gv)
		}
	}
	return out
}

// writeTokenKubeconfig writes a kubeconfig of server for a bearer token.
func writeTokenKubeconfig(path, server, caFile, token string) error {
	return os.WriteFile(path, []byte(fmt.Sprintf(`apiVersion: v1
kind: Config
clusters: [{name: host, cluster: {server: %q, certificate-authority: %q}}]
users: [{name: user, user: {token: %q}}]
contexts: [{name: host, context: {cluster: host, user: user}}]
current-context: host
`, server, caFile, token)), 0o600)
}
