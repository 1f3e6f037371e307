package apiserver

import (
	"slices"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/pkg/apiserver/kubeapis"
	"github.com/mco-org/mco/pkg/apiserver/pki"
	"github.com/mco-org/mco/pkg/registry/resource"
	"github.com/mco-org/mco/pkg/template"
)

// Verbs of the component roles.
var (
	read         = []string{"get", "list", "watch"}
	readWrite    = []string{"get", "list", "watch", "create", "update", "patch", "delete"}
	readUpdate   = []string{"get", "list", "watch", "update", "patch"}
	updateOnly   = []string{"update", "patch"}
	eventWriters = []string{"create", "update", "patch"}
)

// ComponentRoles are the least-privilege ClusterRoles of mco-scheduler and
// mco-controller-manager, bound to the users of their client certificates.
// The controller-manager's template rules follow the served resources:
// mco's table and those of Kubernetes' storage providers (kube).
func ComponentRoles(resources []*resource.Spec, kube []kubeapis.Served) ([]rbacv1.ClusterRole, []rbacv1.ClusterRoleBinding) {
	roles := []rbacv1.ClusterRole{
		clusterRole(pki.Scheduler.User, schedulerRules()),
		clusterRole(pki.ControllerManager.User, controllerManagerRules(resources, kube)),
	}
	var bindings []rbacv1.ClusterRoleBinding
	for _, r := range roles {
		bindings = append(bindings, rbacv1.ClusterRoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: r.Name, Labels: r.Labels},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: r.Name},
			Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: r.Name}},
		})
	}
	return roles, bindings
}

func clusterRole(name string, rules []rbacv1.PolicyRule) rbacv1.ClusterRole {
	return rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/bootstrapping": "rbac-defaults"}},
		Rules:      rules,
	}
}

func rule(group string, resources []string, verbs []string) rbacv1.PolicyRule {
	return rbacv1.PolicyRule{APIGroups: []string{group}, Resources: resources, Verbs: verbs}
}

// commonRules: leader election on a Lease and Events on what they act on.
func commonRules() []rbacv1.PolicyRule {
	return []rbacv1.PolicyRule{
		rule("coordination.k8s.io", []string{"leases"}, readWrite),
		rule("", []string{"events"}, eventWriters),
		rule("events.k8s.io", []string{"events"}, eventWriters),
	}
}

// schedulerRules: bindings and their status, Clusters read.
func schedulerRules() []rbacv1.PolicyRule {
	return append(commonRules(),
		rule("work.karmada.io", []string{"resourcebindings", "clusterresourcebindings"}, readUpdate),
		rule("work.karmada.io", []string{"resourcebindings/status", "clusterresourcebindings/status"}, updateOnly),
		rule("cluster.karmada.io", []string{"clusters"}, read),
		// Placements within each namespace's FederatedResourceQuota.
		rule("policy.karmada.io", []string{"federatedresourcequotas"}, read),
	)
}

// controllerManagerRules: mco's kinds as its controllers use them,
// execution spaces, member credentials, and every template kind (get,
// list, watch, update for the claim, status for the aggregated status).
// Claiming RBAC templates passes Kubernetes' escalation check only with
// escalate and bind.
func controllerManagerRules(resources []*resource.Spec, kube []kubeapis.Served) []rbacv1.PolicyRule {
	rules := append(commonRules(),
		rule("cluster.karmada.io", []string{"clusters"}, readUpdate),
		rule("cluster.karmada.io", []string{"clusters/status"}, updateOnly),
		rule("work.karmada.io", []string{"resourcebindings", "clusterresourcebindings", "works"}, readWrite),
		rule("work.karmada.io", []string{"resourcebindings/status", "clusterresourcebindings/status", "works/status"}, updateOnly),
		rule("policy.karmada.io", []string{"propagationpolicies", "clusterpropagationpolicies"}, readUpdate),
		rule("policy.karmada.io", []string{"overridepolicies", "clusteroverridepolicies"}, read),
		rule("policy.karmada.io", []string{"clustertaintpolicies"}, readWrite),
		rule("policy.karmada.io", []string{"federatedresourcequotas"}, readUpdate),
		rule("policy.karmada.io", []string{"federatedresourcequotas/status"}, updateOnly),
		rule("config.karmada.io", []string{"resourceinterpretercustomizations", "resourceinterpreterwebhookconfigurations"}, read),
		rule("apps.karmada.io", []string{"workloadrebalancers"}, readWrite),
		rule("apps.karmada.io", []string{"workloadrebalancers/status"}, updateOnly),
		rule("remedy.karmada.io", []string{"remedies"}, read),
		rule("networking.karmada.io", []string{"multiclusterservices"}, read),
		rule("networking.karmada.io", []string{"multiclusterservices/status"}, updateOnly),
		// FederatedHPAs and CronFederatedHPAs: the bounds a rule moves, the
		// status each writes.
		rule("autoscaling.karmada.io", []string{"federatedhpas", "cronfederatedhpas"}, readUpdate),
		rule("autoscaling.karmada.io", []string{"federatedhpas/status", "cronfederatedhpas/status"}, updateOnly),
		// The members' pod metrics the FederatedHPAs scale on.
		rule("metrics.k8s.io", []string{"pods"}, read),
		// The members' endpoints collected for services across clusters.
		rule("discovery.k8s.io", []string{"endpointslices"}, readWrite),
		// The Services that ServiceImports derive (derived-<name>).
		rule("", []string{"services"}, readWrite),
		rule("rollout.mco-org.github.io", []string{"rolloutpolicies", "clusterrolloutpolicies"}, read),
		rule("rollout.mco-org.github.io", []string{"rollouts"}, readWrite),
		rule("rollout.mco-org.github.io", []string{"rolloutpolicies/status", "clusterrolloutpolicies/status", "rollouts/status"}, updateOnly),
		// Each rollout's revisions.
		rule("apps", []string{"controllerrevisions"}, readWrite),
		rule("", []string{"namespaces"}, readWrite),
		// Member credentials (and the record of the default taint policy);
		// Secrets and ConfigMaps are templates too, so read everywhere.
		rule("", []string{"secrets", "configmaps"}, readWrite),
		// CRDs and APIServices are templates too; the custom resources of
		// each CRD are granted by extensions.CustomResourceRole as CRDs come.
		rule("apiextensions.k8s.io", []string{"customresourcedefinitions"}, readUpdate),
		rule("apiregistration.k8s.io", []string{"apiservices"}, readUpdate),
	)
	byGroup := map[string][]string{}
	for _, spec := range resources {
		gr := spec.Resource
		if template.Excluded(gr) {
			continue
		}
		byGroup[gr.Group] = append(byGroup[gr.Group], gr.Resource)
		if spec.HasStatus {
			byGroup[gr.Group] = append(byGroup[gr.Group], gr.Resource+"/status")
		}
	}
	for _, s := range kube {
		if !s.Stored || template.Excluded(s.GroupResource) {
			continue
		}
		byGroup[s.Group] = append(byGroup[s.Group], s.Resource)
		if s.Status {
			byGroup[s.Group] = append(byGroup[s.Group], s.Resource+"/status")
		}
	}
	groups := make([]string, 0, len(byGroup))
	for g := range byGroup {
		groups = append(groups, g)
	}
	slices.Sort(groups)
	for _, g := range groups {
		// The replicas the autoscalers set go through the scale
		// subresource of the templates that have one.
		rules = append(rules, rule(g, append(byGroup[g], "*/scale"), readUpdate))
	}
	return append(rules,
		rule(rbacv1.GroupName, []string{"roles", "clusterroles"}, []string{"escalate", "bind"}),
	)
}
