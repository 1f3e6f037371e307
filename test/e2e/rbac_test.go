package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/mco-org/mco/test/e2e/framework"
)

// rbacFixture is applied as-is to mco and to member1: the same Roles,
// ClusterRoles and bindings, including aggregation into view.
const rbacFixture = `apiVersion: v1
kind: Namespace
metadata: {name: e2e-rbac-a}
---
apiVersion: v1
kind: Namespace
metadata: {name: e2e-rbac-b}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: cm-reader, namespace: e2e-rbac-a}
rules:
- {apiGroups: [""], resources: [configmaps], verbs: [get, list]}
- {apiGroups: [""], resources: [secrets], resourceNames: [public], verbs: [get]}
- {apiGroups: [apps], resources: [deployments/scale], verbs: [update]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: dora-cm-reader, namespace: e2e-rbac-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: cm-reader}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: dora}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: e2e-policy-writer}
rules:
- {apiGroups: [policy.karmada.io], resources: [propagationpolicies], verbs: ["*"]}
- {nonResourceURLs: ["/e2e/*"], verbs: [get]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: e2e-ops-policy-writer}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: e2e-policy-writer}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: Group, name: e2e-ops}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: erin-edit, namespace: e2e-rbac-b}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: erin}]
`

// TestRBACMatchesKubeAPIServer: the same RBAC objects on mco and on a real
// member kube-apiserver give the same SubjectAccessReview answers over a
// table of users, groups, verbs, resources, subresources, namespaces,
// resource names and non-resource URLs.
func TestRBACMatchesKubeAPIServer(t *testing.T) {
	framework.Parallel(t)
	kubectl(t, rbacFixture, "apply", "-f", "-")
	kubectl(t, rbacFixture, "--kubeconfig", framework.Env.Member("member1").Kubeconfig, "apply", "-f", "-")
	kube, _ := mcoClients(t)
	member := memberClient(t, "member1")

	type access struct {
		user   string
		groups []string
		attrs  *authorizationv1.ResourceAttributes
		url    string
	}
	res := func(verb, group, resource, sub, ns, name string) *authorizationv1.ResourceAttributes {
		return &authorizationv1.ResourceAttributes{Verb: verb, Group: group, Resource: resource, Subresource: sub, Namespace: ns, Name: name}
	}
	cases := []access{
		{user: "dora", attrs: res("get", "", "configmaps", "", "e2e-rbac-a", "settings")},
		{user: "dora", attrs: res("list", "", "configmaps", "", "e2e-rbac-a", "")},
		{user: "dora", attrs: res("create", "", "configmaps", "", "e2e-rbac-a", "")},
		{user: "dora", attrs: res("get", "", "configmaps", "", "e2e-rbac-b", "settings")},
		{user: "dora", attrs: res("list", "", "configmaps", "", "", "")},
		{user: "dora", attrs: res("get", "", "secrets", "", "e2e-rbac-a", "public")},
		{user: "dora", attrs: res("get", "", "secrets", "", "e2e-rbac-a", "private")},
		{user: "dora", attrs: res("list", "", "secrets", "", "e2e-rbac-a", "")},
		{user: "dora", attrs: res("update", "apps", "deployments", "scale", "e2e-rbac-a", "web")},
		{user: "dora", attrs: res("update", "apps", "deployments", "", "e2e-rbac-a", "web")},
		{user: "dora", attrs: res("get", "apps", "deployments", "status", "e2e-rbac-a", "web")},
		{user: "frank", groups: []string{"e2e-ops"}, attrs: res("delete", "policy.karmada.io", "propagationpolicies", "", "any", "p")},
		{user: "frank", groups: []string{"e2e-ops"}, attrs: res("list", "policy.karmada.io", "propagationpolicies", "", "", "")},
		{user: "frank", groups: []string{"e2e-ops"}, attrs: res("get", "policy.karmada.io", "overridepolicies", "", "any", "")},
		{user: "frank", attrs: res("list", "policy.karmada.io", "propagationpolicies", "", "", "")},
		{user: "frank", groups: []string{"e2e-ops"}, url: "/e2e/anything"},
		{user: "frank", groups: []string{"e2e-ops"}, url: "/other"},
		{user: "frank", groups: []string{"system:authenticated"}, url: "/version"},
		{user: "frank", groups: []string{"system:authenticated"}, url: "/api"},
		{user: "frank", groups: []string{"system:authenticated"}, url: "/metrics"},
		{user: "erin", attrs: res("create", "apps", "deployments", "", "e2e-rbac-b", "")},
		{user: "erin", attrs: res("get", "", "secrets", "", "e2e-rbac-b", "x")},
		{user: "erin", attrs: res("create", "rbac.authorization.k8s.io", "rolebindings", "", "e2e-rbac-b", "")},
		{user: "erin", attrs: res("delete", "", "namespaces", "", "", "e2e-rbac-b")},
		{user: "erin", attrs: res("get", "apps", "deployments", "", "e2e-rbac-a", "")},
		{user: "admin", groups: []string{"system:masters"}, attrs: res("delete", "", "namespaces", "", "", "kube-system")},
		{user: "system:anonymous", groups: []string{"system:unauthenticated"}, url: "/healthz"},
		{user: "system:anonymous", groups: []string{"system:unauthenticated"}, attrs: res("list", "", "configmaps", "", "e2e-rbac-a", "")},
	}
	ask := func(ctx context.Context, client kubernetes.Interface, c access) (bool, error) {
		sar := &authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
			User: c.user, Groups: c.groups, ResourceAttributes: c.attrs}}
		if c.url != "" {
			sar.Spec.NonResourceAttributes = &authorizationv1.NonResourceAttributes{Path: c.url, Verb: "get"}
		}
		out, err := client.AuthorizationV1().SubjectAccessReviews().Create(ctx, sar, metav1.CreateOptions{})
		if err != nil {
			return false, err
		}
		return out.Status.Allowed, nil
	}
	describe := func(c access) string {
		if c.url != "" {
			return fmt.Sprintf("%s %v get %s", c.user, c.groups, c.url)
		}
		a := c.attrs
		return fmt.Sprintf("%s %v %s %s/%s/%s in %q name %q", c.user, c.groups, a.Verb, a.Group, a.Resource, a.Subresource, a.Namespace, a.Name)
	}
	// Both authorizers read RBAC from informers: wait until they agree on
	// the first case, which depends on the fixture.
	eventually(t, 20*time.Second, "both see the fixture", func(ctx context.Context) (bool, string) {
		a, errA := ask(ctx, kube, cases[0])
		b, errB := ask(ctx, member, cases[0])
		return errA == nil && errB == nil && a && b, fmt.Sprintf("mco %v (%v), member %v (%v)", a, errA, b, errB)
	})
	allowed := 0
	for _, c := range cases {
		ctx := context.Background()
		onMCO, err := ask(ctx, kube, c)
		if err != nil {
			t.Fatalf("%s on mco: %v", describe(c), err)
		}
		onMember, err := ask(ctx, member, c)
		if err != nil {
			t.Fatalf("%s on member1: %v", describe(c), err)
		}
		if onMCO != onMember {
			t.Errorf("%s: mco allowed=%v, kube-apiserver allowed=%v", describe(c), onMCO, onMember)
		}
		if onMCO {
			allowed++
		}
	}
	t.Logf("%d access checks, %d allowed, answers identical on mco and kube-apiserver", len(cases), allowed)
}
