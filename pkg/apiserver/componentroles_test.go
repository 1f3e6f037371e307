package apiserver

import (
	"slices"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mco-org/mco/pkg/apiserver/kubeapis"
	"github.com/mco-org/mco/pkg/registry/karmada"
)

// allows tells whether rules grant verb on group/resource (the rules here
// use no wildcards).
func allows(rules []rbacv1.PolicyRule, group, resource, verb string) bool {
	for _, r := range rules {
		if slices.Contains(r.APIGroups, group) && slices.Contains(r.Resources, resource) && slices.Contains(r.Verbs, verb) {
			return true
		}
	}
	return false
}

func TestComponentRoles(t *testing.T) {
	t.Parallel()
	kube := []kubeapis.Served{
		{GroupResource: schema.GroupResource{Group: "rbac.authorization.k8s.io", Resource: "clusterroles"}, Stored: true},
		{GroupResource: schema.GroupResource{Group: "autoscaling", Resource: "horizontalpodautoscalers"}, Stored: true, Status: true},
		{GroupResource: schema.GroupResource{Group: "authentication.k8s.io", Resource: "tokenreviews"}},
		{GroupResource: schema.GroupResource{Group: "events.k8s.io", Resource: "events"}, Stored: true},
	}
	roles, bindings := ComponentRoles(Resources(karmada.WithAllowNoExecuteTaintPolicy(true)), kube)
	byName := map[string][]rbacv1.PolicyRule{}
	for _, r := range roles {
		byName[r.Name] = r.Rules
	}
	if len(bindings) != len(roles) || bindings[0].Subjects[0].Name != roles[0].Name {
		t.Errorf("each role is bound to the user of its name: %+v", bindings)
	}
	cases := []struct {
		name                  string
		role                  string
		group, resource, verb string
		want                  bool
	}{
		{"The scheduler writes binding status.", "system:mco-scheduler", "work.karmada.io", "resourcebindings/status", "update", true},
		{"The scheduler reads Clusters.", "system:mco-scheduler", "cluster.karmada.io", "clusters", "watch", true},
		{"The scheduler reads no Secrets.", "system:mco-scheduler", "", "secrets", "get", false},
		{"The scheduler creates no Deployments.", "system:mco-scheduler", "apps", "deployments", "create", false},
		{"The controller-manager claims Deployments.", "system:mco-controller-manager", "apps", "deployments", "update", true},
		{"The controller-manager writes a Deployment's status.", "system:mco-controller-manager", "apps", "deployments/status", "update", true},
		{"The controller-manager creates no Deployments.", "system:mco-controller-manager", "apps", "deployments", "create", false},
		{"The controller-manager claims every served template kind, Jobs too.", "system:mco-controller-manager", "batch", "jobs", "update", true},
		{"The controller-manager writes Works.", "system:mco-controller-manager", "work.karmada.io", "works", "create", true},
		{"The controller-manager claims kinds of Kubernetes' storage providers.", "system:mco-controller-manager", "autoscaling", "horizontalpodautoscalers", "update", true},
		{"... and writes their status.", "system:mco-controller-manager", "autoscaling", "horizontalpodautoscalers/status", "update", true},
		{"The reviews are no templates.", "system:mco-controller-manager", "authentication.k8s.io", "tokenreviews", "update", false},
		{"events.k8s.io Events are written, not claimed.", "system:mco-controller-manager", "events.k8s.io", "events", "update", true},
		{"The controller-manager claims a Pod.", "system:mco-controller-manager", "", "pods", "update", true},
		{"The controller-manager claims RBAC templates.", "system:mco-controller-manager", "rbac.authorization.k8s.io", "clusterroles", "update", true},
		{"The controller-manager claims RBAC templates, which needs escalate.", "system:mco-controller-manager", "rbac.authorization.k8s.io", "clusterroles", "escalate", true},
		{"The controller-manager does not write policies' specs beyond the finalizer update.", "system:mco-controller-manager", "policy.karmada.io", "propagationpolicies", "create", false},
	}
	for _, tc := range cases {
		if got := allows(byName[tc.role], tc.group, tc.resource, tc.verb); got != tc.want {
			t.Errorf("%s %s %s %s/%s: %v, want %v", tc.name, tc.role, tc.verb, tc.group, tc.resource, got, tc.want)
		}
	}
}
