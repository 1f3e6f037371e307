package kubeapis

import (
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	rbacrest "k8s.io/kubernetes/pkg/registry/rbac/rest"
	"k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac/bootstrappolicy"
)

// keptClusterRoles are the bootstrap ClusterRoles of kube-apiserver that
// mean something on mco; the roles of kube's own components do not.
var keptClusterRoles = sets.New(
	"cluster-admin", "admin", "edit", "view",
	"system:aggregate-to-admin", "system:aggregate-to-edit", "system:aggregate-to-view",
	"system:discovery", "system:basic-user", "system:public-info-viewer", "system:monitoring",
)

// Policy is what mco-apiserver reconciles at every start, as
// kube-apiserver reconciles its bootstrap policy: missing roles and
// bindings are created, missing rules and subjects added, what users added
// kept. extraRoles and extraBindings are mco's own (its components').
func Policy(extraRoles []rbacv1.ClusterRole, extraBindings []rbacv1.ClusterRoleBinding) *rbacrest.PolicyData {
	var roles []rbacv1.ClusterRole
	for _, r := range bootstrappolicy.ClusterRoles() {
		if keptClusterRoles.Has(r.Name) {
			roles = append(roles, r)
		}
	}
	var bindings []rbacv1.ClusterRoleBinding
	for _, b := range bootstrappolicy.ClusterRoleBindings() {
		if keptClusterRoles.Has(b.RoleRef.Name) {
			bindings = append(bindings, b)
		}
	}
	return &rbacrest.PolicyData{
		ClusterRoles:            append(append(roles, aggregatedRoles()...), extraRoles...),
		ClusterRoleBindings:     append(bindings, extraBindings...),
		ClusterRolesToAggregate: bootstrappolicy.ClusterRolesToAggregate(),
	}
}

// Karmada's API groups.
const (
	policyGroup = "policy.karmada.io"
	workGroup   = "work.karmada.io"
	// mco's own
	rolloutGroup = "rollout.mco-org.github.io"
)

var (
	readVerbs  = []string{"get", "list", "watch"}
	writeVerbs = []string{"create", "update", "patch", "delete", "deletecollection"}
)

// aggregatedRoles put mco's namespaced kinds into admin, edit and view
// through the aggregation labels: who may edit a namespace's Deployments
// may edit its PropagationPolicies and OverridePolicies, and read its
// ResourceBindings, which the controllers write; likewise its
// RolloutPolicies, and its Rollouts (mco makes them; editors pause,
// resume and roll back through them).
func aggregatedRoles() []rbacv1.ClusterRole {
	role := func(name, label string, rules ...rbacv1.PolicyRule) rbacv1.ClusterRole {
		return rbacv1.ClusterRole{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{
				"kubernetes.io/bootstrapping": "rbac-defaults", "rbac.authorization.k8s.io/aggregate-to-" + label: "true"}},
			Rules: rules,
		}
	}
	policies := []string{"propagationpolicies", "overridepolicies"}
	return []rbacv1.ClusterRole{
		role("mco:aggregate-to-view", "view",
			rbacv1.PolicyRule{APIGroups: []string{policyGroup}, Resources: policies, Verbs: readVerbs},
			rbacv1.PolicyRule{APIGroups: []string{workGroup}, Resources: []string{"resourcebindings", "resourcebindings/status"}, Verbs: readVerbs},
			rbacv1.PolicyRule{APIGroups: []string{policyGroup}, Resources: []string{"federatedresourcequotas", "federatedresourcequotas/status"}, Verbs: readVerbs},
			rbacv1.PolicyRule{APIGroups: []string{rolloutGroup}, Resources: []string{"rolloutpolicies", "rolloutpolicies/status",
				"rollouts", "rollouts/status"}, Verbs: readVerbs}),
		role("mco:aggregate-to-edit", "edit",
			rbacv1.PolicyRule{APIGroups: []string{policyGroup}, Resources: policies, Verbs: writeVerbs},
			rbacv1.PolicyRule{APIGroups: []string{rolloutGroup}, Resources: []string{"rolloutpolicies"}, Verbs: writeVerbs},
			rbacv1.PolicyRule{APIGroups: []string{rolloutGroup}, Resources: []string{"rollouts"}, Verbs: []string{"update", "patch"}}),
	}
}
