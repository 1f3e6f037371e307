package e2e

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/utils/ptr"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/testing/localcluster"
	"github.com/mco-org/mco/test/e2e/framework"
)

// TestPullMemberFailover: a Deployment divided over member1 and the Pull
// member moves to member1 when the Pull member's kube-apiserver stops
// answering, and again when its agent is killed; each time the Pull
// member comes back the replicas add up to what was asked, none twice.
// Both times mco learns it from the Lease: the agent's leader lease is in
// the member, so with the member's kube-apiserver away the agent stands
// by, its Lease lapses and mco marks the cluster Unknown.
func TestPullMemberFailover(t *testing.T) {
	framework.Serial(t, "pauses member3 and kills its mco-agent")
	m := pullMember(t)
	name := m.Spec.Name
	ns := namespace(t, "e2e-pull-failover")
	kubectl(t, deploymentYAML(ns, "web", 4, "100m")+"---\n"+weightedPolicy(ns, "web", "member1", name, 1, 1, ""), "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member1": 2, name: 2})
	_, mco := mcoClients(t)

	movedToMember1 := func(what string) {
		t.Helper()
		eventually(t, 150*time.Second, what+": all 4 replicas in member1", func(ctx context.Context) (bool, string) {
			b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, "web-deployment", metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			d, err := memberClient(t, "member1").AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			return len(b.Spec.Clusters) == 1 && b.Spec.Clusters[0].Name == "member1" && *d.Spec.Replicas == 4,
				fmt.Sprintf("binding clusters %v, member1 asks %d", b.Spec.Clusters, *d.Spec.Replicas)
		})
	}
	backAndWhole := func(what string) {
		t.Helper()
		waitClusterHealthy(t, name)
		waitEvictionOver(t, ns, "web", 4, 120*time.Second, what+": ")
	}

	resume := pauseMember(t, name)
	movedToMember1("member paused")
	resume()
	backAndWhole("member resumed")
	// The failover moved everything to member1; bring the division back.
	kubectl(t, "", "-n", ns, "delete", "deploy", "web")
	waitReplicas(t, ns, "web", map[string]int32{"member1": -1, name: -1})
	kubectl(t, deploymentYAML(ns, "web", 4, "100m"), "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member1": 2, name: 2})

	if err := m.Agent.Kill(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if !m.Agent.Running() {
			_ = m.Agent.Restart()
		}
	})
	eventually(t, 90*time.Second, name+" Unknown once its Lease lapsed", func(ctx context.Context) (bool, string) {
		c, err := mco.ClusterV1alpha1().Clusters().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		ready := clusterReady(c)
		return ready == metav1.ConditionUnknown, "Ready " + string(ready)
	})
	movedToMember1("agent killed")
	if err := m.Agent.Restart(); err != nil {
		t.Fatal(err)
	}
	backAndWhole("agent back")
}

// clusterReady is the status of a Cluster's Ready condition.
func clusterReady(c *clusterv1alpha1.Cluster) metav1.ConditionStatus {
	for _, cond := range c.Status.Conditions {
		if cond.Type == clusterv1alpha1.ClusterConditionReady {
			return cond.Status
		}
	}
	return ""
}

// agentRequests sums the agent's requests to mco so far.
func agentRequests(ctx context.Context, t *testing.T, m *localcluster.Member) (total, failed float64) {
	t.Helper()
	for _, code := range []string{"200", "201", "404", "409", "error"} {
		line := metricLine(ctx, localcluster.HealthURL(m.AgentPort), `mco_agent_requests_total{code="`+code+`"}`)
		if f := strings.Fields(line); len(f) == 2 {
			v, _ := strconv.ParseFloat(f[1], 64)
			total += v
			if code == "error" {
				failed = v
			}
		}
	}
	return total, failed
}

// TestPullAgentWhileMCOIsAway: with mco-apiserver stopped for 30 s (the
// agent gives up on it within two status updates, so the outage spans its
// first retries and outlasts its Lease) the agent stops its controllers,
// leaves the member as it is (a change made there meanwhile stays), tries
// again with a growing backoff (a handful of requests, not a busy loop),
// and once mco is back converges from the Works: the change is undone and
// what was applied since arrives.
func TestPullAgentWhileMCOIsAway(t *testing.T) {
	framework.Serial(t, "stops mco-apiserver for half a minute")
	m := pullMember(t)
	name := m.Spec.Name
	ns := namespace(t, "e2e-pull-away")
	kubectl(t, deploymentYAML(ns, "web", 1, "100m")+"---\n"+onlyOn(ns, "web", name, "Abort"), "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{name: 1})
	ctx := context.Background()
	member := memberClient(t, name)

	api := framework.Env.MCO.APIServer
	api.Stop(10 * time.Second)
	stopped := time.Now()
	t.Cleanup(func() { restartMCO(t) })
	before, _ := agentRequests(ctx, t, m)
	// Someone changes the member meanwhile.
	d, err := member.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d.Spec.Replicas = ptr.To(int32(3))
	if _, err := member.AppsV1().Deployments(ns).Update(ctx, d, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	// Throughout the outage, the member keeps what was set there.
	const outage = 30 * time.Second
	for tick := time.NewTicker(time.Second); time.Now().Before(stopped.Add(outage)); <-tick.C {
		if got := memberReplicas(ctx, t, ns, "web")[name]; got != 3 {
			t.Fatalf("%s's copy has %d replicas %s into mco's outage, want the 3 set there: the agent changed the member",
				name, got, time.Since(stopped).Round(time.Second))
		}
	}
	if line := metricLine(ctx, localcluster.HealthURL(m.AgentPort), "mco_agent_connected"); line != "mco_agent_connected 0" {
		t.Errorf("agent while mco is away: %q, want mco_agent_connected 0", line)
	}
	after, _ := agentRequests(ctx, t, m)
	t.Logf("agent requests to mco during the %s outage: %.0f", outage, after-before)
	// It checks every status update (2 s) until it gives up, then tries
	// again after 2, 4, 8, 8 s (framework.Timing): a busy loop would make
	// 15 requests or more.
	if after-before > 8 {
		t.Errorf("agent made %.0f requests to mco in %s while it was away, want a backoff (at most 8)", after-before, outage)
	}

	back := time.Now()
	restartMCO(t)
	eventually(t, 90*time.Second, "the agent undoes the change", func(ctx context.Context) (bool, string) {
		got := memberReplicas(ctx, t, ns, "web")[name]
		return got == 1, fmt.Sprintf("%s has %d replicas", name, got)
	})
	t.Logf("agent converged %s after mco-apiserver was started again", time.Since(back).Round(time.Second))
	kubectl(t, deploymentYAML(ns, "after", 1, "100m")+"---\n"+onlyOn(ns, "after", name, "Abort"), "apply", "-f", "-")
	waitReplicas(t, ns, "after", map[string]int32{name: 1})
}

// restartMCO starts mco-apiserver again if it is stopped, waits until it
// answers, and starts again the components that stopped without it.
func restartMCO(t *testing.T) {
	t.Helper()
	cp := framework.Env.MCO
	if !cp.APIServer.Running() {
		if err := cp.APIServer.Restart(); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, 60*time.Second, "mco-apiserver ready", func(context.Context) (bool, string) {
		out, err := kubectlErr("", "get", "--raw", "/readyz")
		return err == nil && strings.TrimSpace(out) == "ok", out
	})
	for _, p := range []*localcluster.Process{cp.Scheduler, cp.ControllerManager} {
		if !p.Running() {
			if err := p.Restart(); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, url := range []string{cp.SchedulerURL(), cp.ControllerManagerURL()} {
		eventually(t, 60*time.Second, url+" ready", func(ctx context.Context) (bool, string) {
			return httpOK(ctx, url+"/readyz"), "not ready"
		})
	}
}

// agentClients reach mco with the Pull member's agent credential, where
// the agent reads it: its file, or the Secret register wrote in the member.
func agentClients(t *testing.T, m *localcluster.Member) (kubernetes.Interface, mcoclient.Interface) {
	t.Helper()
	var raw []byte
	if ns, name, ok := strings.Cut(m.AgentSecret, "/"); ok {
		s, err := memberClient(t, m.Spec.Name).CoreV1().Secrets(ns).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		raw = s.Data["kubeconfig"]
	} else {
		var err error
		if raw, err = os.ReadFile(m.AgentKubeconfig); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := clientcmd.RESTConfigFromKubeConfig(raw)
	if err != nil {
		t.Fatal(err)
	}
	return kubernetes.NewForConfigOrDie(cfg), mcoclient.NewForConfigOrDie(cfg)
}

// TestPullAgentIdentity: the agent's credential reads and writes its own
// cluster's Works, Cluster and Lease, and is refused (403) everything
// else: another cluster's Works, Cluster and Lease, templates, Secrets.
func TestPullAgentIdentity(t *testing.T) {
	framework.Parallel(t)
	m := pullMember(t)
	name := m.Spec.Name
	kube, mco := agentClients(t, m)
	ctx := context.Background()
	if _, err := mco.WorkV1alpha1().Works(names.ExecutionSpace(name)).List(ctx, metav1.ListOptions{}); err != nil {
		t.Errorf("list own works: %v", err)
	}
	if _, err := mco.ClusterV1alpha1().Clusters().Get(ctx, name, metav1.GetOptions{}); err != nil {
		t.Errorf("get own cluster: %v", err)
	}
	forbidden := map[string]func() error{
		"list member1's works": func() error {
			_, err := mco.WorkV1alpha1().Works(names.ExecutionSpace("member1")).List(ctx, metav1.ListOptions{})
			return err
		},
		"list templates (Deployments)": func() error {
			_, err := kube.AppsV1().Deployments(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
			return err
		},
		"list secrets": func() error {
			_, err := kube.CoreV1().Secrets("karmada-cluster").List(ctx, metav1.ListOptions{})
			return err
		},
		"list clusters": func() error {
			_, err := mco.ClusterV1alpha1().Clusters().List(ctx, metav1.ListOptions{})
			return err
		},
		"get member1's cluster": func() error {
			_, err := mco.ClusterV1alpha1().Clusters().Get(ctx, "member1", metav1.GetOptions{})
			return err
		},
		"create another cluster": func() error {
			_, err := mco.ClusterV1alpha1().Clusters().Create(ctx, &clusterv1alpha1.Cluster{ObjectMeta: metav1.ObjectMeta{Name: "member9"},
				Spec: clusterv1alpha1.ClusterSpec{SyncMode: clusterv1alpha1.Pull}}, metav1.CreateOptions{})
			return err
		},
		"create member1's lease": func() error {
			_, err := kube.CoordinationV1().Leases("karmada-cluster").Create(ctx, &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: "member1-x"}}, metav1.CreateOptions{})
			return err
		},
		"read member1's lease": func() error {
			_, err := kube.CoordinationV1().Leases("karmada-cluster").Get(ctx, "member1", metav1.GetOptions{})
			return err
		},
	}
	for what, call := range forbidden {
		if err := call(); !apierrors.IsForbidden(err) {
			t.Errorf("%s with the agent's credential: %v, want 403 Forbidden", what, err)
		}
	}
}

// TestPullMemberNotProxied: mco does not dial a Pull member, so its
// cluster proxy answers 503 with the reason.
func TestPullMemberNotProxied(t *testing.T) {
	framework.Parallel(t)
	m := pullMember(t)
	out, err := kubectlErr("", "get", "--raw", proxyPath(m.Spec.Name)+"/api/v1/namespaces")
	if err == nil {
		t.Fatalf("the proxy of the Pull member answered:\n%s", out)
	}
	if msg := out + err.Error(); !strings.Contains(msg, "ServiceUnavailable") || !strings.Contains(msg, "Pull mode") {
		t.Errorf("proxy of the Pull member: %s, want 503 naming Pull mode", msg)
	}
}
