// Package aggregated runs mco-apiserver in aggregated mode behind a host
// cluster's kube-apiserver, as a platform team would next to an existing
// cluster: the host (a real kube-apiserver with the aggregation layer on,
// routing to Services rather than endpoints) reaches mco-apiserver through
// APIServices and an ExternalName Service resolving to loopback; mco's
// scheduler and controller-manager talk to the host only; one bare member
// cluster is joined through the host by kubectl mco join's code. The
// environment is localcluster's aggregated one, as make local-up-aggregated
// brings it up.
package aggregated

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// setup is the running installation. mco-apiserver, mco-scheduler and
// mco-controller-manager run as the host ServiceAccounts the chart's
// aggregated mode binds, with the chart's roles.
type setup struct {
	binDir string
	env    *localcluster.Env
	// host is the host cluster (its Kubeconfig is the admin's).
	host *localcluster.Member
	// caFile is the CA of mco-apiserver's serving certificate.
	caFile string
	// alice is a kubeconfig of the host for a user without any role.
	alice string
}

var agg setup

// aliceToken is the bearer token of the user alice in the host's token file.
const aliceToken = "alice-token-0123456789"

func TestMain(m *testing.M) {
	os.Exit(localcluster.RunSuite(m, "aggregated", bringUp))
}

// bringUp starts the host, with alice in its token file, and member1;
// mco-apiserver behind the host, registered there; the scheduler and
// controller-manager against the host, each component as the
// ServiceAccount the chart gives it; and joins member1 through the host.
func bringUp(ctx context.Context, dir, binDir string) (*localcluster.Env, string, error) {
	agg.binDir = binDir
	tokens := filepath.Join(dir, "host-tokens.csv")
	if err := os.WriteFile(tokens, []byte(aliceToken+",alice,alice-uid\n"), 0o600); err != nil {
		return nil, "", err
	}
	var err error
	agg.env, err = localcluster.Up(ctx, localcluster.Options{
		Dir: dir, BinDir: binDir, BareMembers: true, ControlPlane: true,
		Members:    []localcluster.MemberSpec{{Name: "member1"}},
		Aggregated: true, HostAPIServerArgs: []string{"--token-auth-file=" + tokens}, Identities: componentIdentities,
	})
	if err != nil {
		return agg.env, "", err
	}
	agg.host = agg.env.Host
	agg.caFile = filepath.Join(agg.env.MCO.DataDir, "pki", "ca.crt")
	agg.alice = filepath.Join(dir, "alice.kubeconfig")
	if err := writeTokenKubeconfig(agg.alice, agg.host.URL(), agg.env.PKI.CACert, aliceToken); err != nil {
		return agg.env, "", err
	}
	return agg.env, "host, member1 and mco-apiserver behind the host's aggregator", nil
}

// componentIdentities gives each component the host identity the chart
// gives it: the chart's aggregated-mode RBAC is applied to the host, and
// each component gets a kubeconfig with a token of its ServiceAccount, so
// that what the components do on the host is held to those roles.
func componentIdentities(ctx context.Context, env *localcluster.Env) (map[string]string, error) {
	agg.host = env.Host
	chart := filepath.Join("..", "..", "charts", "mco")
	rbac, err := exec.CommandContext(ctx, filepath.Join(agg.binDir, "helm"), "template", "mco", chart,
		"--set", "mode=aggregated", "--namespace", localcluster.AggregatedNamespace, "--show-only", "templates/aggregated.yaml").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("helm template: %w\n%s", err, rbac)
	}
	if out, err := hostKubectl("", string(rbac), "apply", "-f", "-"); err != nil {
		return nil, fmt.Errorf("apply the chart's RBAC: %w\n%s", err, out)
	}
	out := map[string]string{}
	for _, c := range []string{"apiserver", "scheduler", "controller-manager"} {
		sa := "mco-" + c
		if o, err := hostKubectl("", "", "-n", localcluster.AggregatedNamespace, "create", "serviceaccount", sa); err != nil {
			return nil, fmt.Errorf("%w\n%s", err, o)
		}
		token, err := hostKubectl("", "", "-n", localcluster.AggregatedNamespace, "create", "token", sa, "--duration=2h")
		if err != nil {
			return nil, fmt.Errorf("token of %s: %w\n%s", sa, err, token)
		}
		out[c] = filepath.Join(env.Dir, sa+".kubeconfig")
		if err := writeTokenKubeconfig(out[c], env.Host.URL(), env.PKI.CACert, strings.TrimSpace(token)); err != nil {
			return nil, err
		}
	}
	return out, nil
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
