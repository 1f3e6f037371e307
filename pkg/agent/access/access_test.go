package access

import (
	"context"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubefake "k8s.io/client-go/kubernetes/fake"
)

func TestAgentCluster(t *testing.T) {
	t.Parallel()
	cases := []struct {
		user, want string
		ok         bool
	}{
		{"system:serviceaccount:karmada-cluster:mco-agent-edge-1", "edge-1", true},
		{"system:serviceaccount:default:mco-agent-edge-1", "", false},
		{"system:serviceaccount:karmada-cluster:mco-agent-", "", false},
		{"system:serviceaccount:karmada-cluster:karmada-edge-1", "", false},
		{"mco-agent-edge-1", "", false},
	}
	for _, c := range cases {
		if got, ok := AgentCluster(c.user); got != c.want || ok != c.ok {
			t.Errorf("AgentCluster(%q) = %q, %t; want %q, %t", c.user, got, ok, c.want, c.ok)
		}
	}
}

// TestForGrantsOnlyItsOwn: the agent's RBAC names its own Cluster, Lease
// and ServiceAccount wherever RBAC can, and grants nothing on Works,
// templates or Secrets.
func TestForGrantsOnlyItsOwn(t *testing.T) {
	t.Parallel()
	o := For("edge-1")
	if o.ServiceAccount.Name != "mco-agent-edge-1" || o.ServiceAccount.Namespace != Namespace {
		t.Errorf("service account %s/%s", o.ServiceAccount.Namespace, o.ServiceAccount.Name)
	}
	rules := slices.Clone(o.ClusterRole.Rules)
	for _, r := range o.Roles {
		rules = append(rules, r.Rules...)
	}
	for _, r := range rules {
		for _, res := range r.Resources {
			switch res {
			case "works", "works/status", "secrets", "deployments", "resourcebindings":
				t.Errorf("rule %+v grants %s", r, res)
			}
		}
		if namesOwn(r) || slices.Equal(r.Verbs, []string{"create"}) || slices.Contains(r.Resources, "events") ||
			slices.Contains(r.Resources, "resourceinterpretercustomizations") {
			continue
		}
		t.Errorf("rule %+v names no resource of the agent's own", r)
	}
}

func namesOwn(r rbacv1.PolicyRule) bool {
	return len(r.ResourceNames) == 1 && (r.ResourceNames[0] == "edge-1" || r.ResourceNames[0] == "mco-agent-edge-1" || r.ResourceNames[0] == "edge-1-metrics")
}

func TestRemoveTakesTheAgentsReport(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	kube := kubefake.NewClientset(
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: Namespace, Name: "edge-1-metrics"}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: Namespace, Name: "edge-2-metrics"}})
	if err := Ensure(ctx, kube, "edge-1"); err != nil {
		t.Fatal(err)
	}
	if err := Remove(ctx, kube, "edge-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := kube.CoreV1().ConfigMaps(Namespace).Get(ctx, "edge-1-metrics", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("edge-1's metrics report after Remove: %v, want NotFound", err)
	}
	if _, err := kube.CoreV1().ConfigMaps(Namespace).Get(ctx, "edge-2-metrics", metav1.GetOptions{}); err != nil {
		t.Errorf("edge-2's metrics report: %v", err)
	}
	if _, err := kube.CoreV1().ServiceAccounts(Namespace).Get(ctx, "mco-agent-edge-1", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("edge-1's service account after Remove: %v", err)
	}
}
