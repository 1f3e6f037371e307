package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/pkg/agent/access"
	"github.com/mco-org/mco/pkg/testing/localcluster"
	"github.com/mco-org/mco/test/e2e/framework"
)

// TestPullRegisterUnregister: a revoked agent credential stops the agent
// with a line saying so; token create and register give the member a new
// one (a bootstrap credential registers only its own cluster); unjoin
// refuses the Pull cluster; unregister withdraws what was propagated,
// deletes the Cluster, revokes the credential and removes the agent from
// the member; registering again brings the cluster back.
func TestPullRegisterUnregister(t *testing.T) {
	framework.Serial(t, "unregisters member3 and registers it again")
	m := pullMember(t)
	name := m.Spec.Name
	ctx := context.Background()
	kube, mco := mcoClients(t)
	t.Cleanup(func() {
		if !m.Agent.Running() {
			t.Log("registering the Pull member again for the tests after")
			registerAgain(t, m)
		}
	})

	// Revoked: the agent stops and says why.
	if err := access.Remove(ctx, kube, name); err != nil {
		t.Fatal(err)
	}
	if tail := waitAgentStopped(t, m, 60*time.Second); !strings.Contains(tail, "refused the agent's credential (401 Unauthorized): it was revoked or has expired") {
		t.Errorf("the agent's log does not say its credential was refused:\n%s", tail)
	}

	registerAgain(t, m)
	// A bootstrap credential is its cluster's only.
	bootstrap := filepath.Join(t.TempDir(), "bootstrap.kubeconfig")
	kubectlMCO(t, "token", "create", name, "--bootstrap-kubeconfig", bootstrap).mustSucceed(t, "token create")
	r := kubectlMCO(t, "register", "member1", "--bootstrap-kubeconfig", bootstrap, "--cluster-kubeconfig", framework.Env.Member("member1").Kubeconfig, "--no-deployment")
	if r.code == 0 || !strings.Contains(r.stderr, "the bootstrap credential is not cluster member1's") {
		t.Errorf("register of member1 with %s's bootstrap credential: exit %d, stderr %s", name, r.code, r.stderr)
	}

	ns := namespace(t, "e2e-pull-register")
	kubectl(t, deploymentYAML(ns, "web", 1, "100m")+"---\n"+onlyOn(ns, "web", name, "Abort"), "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{name: 1})

	kubectlMCO(t, "unjoin", name, "--wait", "10s").
		failsWithOneLine(t, "unjoin of a Pull cluster", "error: cluster "+name+" is in Pull mode: its agent registered it; remove it with kubectl mco unregister "+name)

	r = kubectlMCO(t, "unregister", name, "--cluster-kubeconfig", m.Kubeconfig, "--wait", "90s")
	r.mustSucceed(t, "unregister")
	if !strings.HasSuffix(r.stdout, "Cluster "+name+" unregistered\n") {
		t.Errorf("unregister output:\n%s", r.stdout)
	}
	waitReplicas(t, ns, "web", map[string]int32{name: -1})
	if _, err := mco.ClusterV1alpha1().Clusters().Get(ctx, name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("cluster %s after unregister: %v, want NotFound", name, err)
	}
	if _, err := kube.CoreV1().ServiceAccounts(access.Namespace).Get(ctx, access.ServiceAccountName(name), metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("the agent's identity on mco after unregister: %v, want NotFound", err)
	}
	eventually(t, 60*time.Second, "the agent's namespace gone from the member", func(ctx context.Context) (bool, string) {
		_, err := memberClient(t, name).CoreV1().Namespaces().Get(ctx, "mco-system", metav1.GetOptions{})
		return apierrors.IsNotFound(err), fmt.Sprint(err)
	})
	waitAgentStopped(t, m, 60*time.Second)

	registerAgain(t, m)
	waitReplicas(t, ns, "web", map[string]int32{name: 1})
}

// registerAgain registers the Pull member m as an admin and the member's
// admin would: token create, register (the credential goes into a Secret
// in the member), and the agent started on it; it waits until the Cluster
// is Ready.
func registerAgain(t *testing.T, m *localcluster.Member) {
	t.Helper()
	bootstrap := filepath.Join(t.TempDir(), "bootstrap.kubeconfig")
	kubectlMCO(t, "token", "create", m.Spec.Name, "--ttl", "15m", "--bootstrap-kubeconfig", bootstrap).mustSucceed(t, "token create")
	var labels []string
	for k, v := range m.Spec.Labels {
		labels = append(labels, k+"="+v)
	}
	r := kubectlMCO(t, "register", m.Spec.Name, "--bootstrap-kubeconfig", bootstrap, "--cluster-kubeconfig", m.Kubeconfig, "--no-deployment",
		"--region", m.Spec.Region, "--zone", m.Spec.Zone, "--labels", strings.Join(labels, ","))
	r.mustSucceed(t, "register")
	if !strings.Contains(r.stdout, "--mco-kubeconfig-secret=mco-system/mco-agent") {
		t.Errorf("register output does not tell how to run the agent:\n%s", r.stdout)
	}
	m.AgentSecret = "mco-system/mco-agent"
	if m.Agent.Running() {
		m.Agent.Stop(10 * time.Second)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := framework.Env.StartAgent(ctx, m); err != nil {
		t.Fatal(err)
	}
	waitClusterHealthy(t, m.Spec.Name)
}
