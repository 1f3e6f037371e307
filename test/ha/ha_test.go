package ha

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/mco-org/mco/pkg/testing/cli"
	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// TestLosingAnEtcdMemberAndAnAPIServer: one etcd member and one
// mco-apiserver are killed with SIGKILL; kubectl through the load balancer
// carries on, what was applied before is still there and in the member,
// and a new Deployment still propagates.
func TestLosingAnEtcdMemberAndAnAPIServer(t *testing.T) {
	const ns = "default"
	kubectl(t, workload(ns, "before"), "apply", "-f", "-")
	waitInMember(t, ns, "before", 90*time.Second)

	killed := time.Now()
	if err := ha.env.MCO.HA.Etcd[0].Kill(); err != nil {
		t.Fatal(err)
	}
	if err := ha.env.MCO.HA.APIServers[0].Kill(); err != nil {
		t.Fatal(err)
	}
	eventually(t, 60*time.Second, "kubectl reads what was applied before", func(context.Context) (bool, string) {
		out, err := kubectlErr("", "-n", ns, "get", "deployment", "before", "-o", "name")
		return err == nil && strings.TrimSpace(out) == "deployment.apps/before", out
	})
	t.Logf("kubectl answers %s after one etcd member and one mco-apiserver were killed", time.Since(killed).Round(100*time.Millisecond))

	start := time.Now()
	kubectl(t, workload(ns, "after"), "apply", "-f", "-")
	waitInMember(t, ns, "after", 2*time.Minute)
	t.Logf("a Deployment applied after the kills reached the member in %s", time.Since(start).Round(100*time.Millisecond))
	waitInMember(t, ns, "before", 30*time.Second)
	for _, name := range []string{"before", "after"} {
		kubectl(t, "", "-n", ns, "get", "propagationpolicy", name)
	}
}

// workload is a Deployment and the policy sending it to member1.
func workload(ns, name string) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: %[2]s, namespace: %[1]s}
spec:
  replicas: 1
  selector: {matchLabels: {app: %[2]s}}
  template:
    metadata: {labels: {app: %[2]s}}
    spec: {containers: [{name: c, image: nginx}]}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: %[2]s, namespace: %[1]s}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: %[2]s}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`, ns, name)
}

// waitInMember waits until the Deployment is in member1.
func waitInMember(t *testing.T, ns, name string, timeout time.Duration) {
	t.Helper()
	client, err := ha.env.Members[0].Client()
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, timeout, "Deployment "+name+" in member1", func(ctx context.Context) (bool, string) {
		_, err := client.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return false, "not there yet"
		}
		return err == nil, fmt.Sprint(err)
	})
}

func kubectl(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	return haKubectl().Must(t, stdin, args...)
}

func kubectlErr(stdin string, args ...string) (string, error) {
	return haKubectl().Run(stdin, args...)
}

// haKubectl is the real kubectl through the load balancer.
func haKubectl() cli.Kubectl {
	return cli.Kubectl{Bin: filepath.Join(ha.binDir, "kubectl"), Kubeconfig: ha.admin, Args: []string{"--request-timeout=10s"}}
}

func eventually(t *testing.T, timeout time.Duration, what string, cond func(ctx context.Context) (bool, string)) {
	t.Helper()
	cli.Eventually(t, timeout, what, cond)
}

// TestLeaderTakeover: the leading mco-scheduler and mco-controller-manager
// are killed with SIGKILL; the standbys take their leases over and a new
// Deployment still propagates. The takeover times are logged.
func TestLeaderTakeover(t *testing.T) {
	const ns = "default"
	kube, err := kubernetes.NewForConfig(restConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	pairs := []struct {
		lease string
		pair  []*localcluster.Process
	}{{"mco-scheduler", ha.env.MCO.HA.Schedulers}, {"mco-controller-manager", ha.env.MCO.HA.ControllerManagers}}
	killed := time.Now()
	for _, p := range pairs {
		leader, _ := holder(t, kube, p.lease, p.pair)
		if leader == nil {
			t.Fatalf("%s: neither replica holds the lease", p.lease)
		}
		if err := leader.Kill(); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range pairs {
		eventually(t, 60*time.Second, p.lease+" taken over", func(context.Context) (bool, string) {
			c, id := holder(t, kube, p.lease, p.pair)
			return c != nil && c.Running(), "held by " + id
		})
		t.Logf("%s: the standby holds the lease %s after the leader was killed", p.lease, time.Since(killed).Round(100*time.Millisecond))
	}
	start := time.Now()
	kubectl(t, workload(ns, "after-takeover"), "apply", "-f", "-")
	waitInMember(t, ns, "after-takeover", 2*time.Minute)
	t.Logf("a Deployment applied under the new leaders reached the member in %s", time.Since(start).Round(100*time.Millisecond))
}

// holder returns the replica holding the lease kube-system/name
// (identities are "<host>_<pid>"), or nil, and the identity.
func holder(t *testing.T, kube kubernetes.Interface, name string, replicas []*localcluster.Process) (*localcluster.Process, string) {
	t.Helper()
	l, err := kube.CoordinationV1().Leases(metav1.NamespaceSystem).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil || l.Spec.HolderIdentity == nil {
		return nil, fmt.Sprint(err)
	}
	id := *l.Spec.HolderIdentity
	for _, c := range replicas {
		if strings.HasSuffix(id, "_"+strconv.Itoa(c.PID)) {
			return c, id
		}
	}
	return nil, id
}

func restConfig(t *testing.T) *rest.Config {
	t.Helper()
	cfg, err := localcluster.RESTConfig(ha.admin)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
