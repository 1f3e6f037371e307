package access

import (
	"slices"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
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
