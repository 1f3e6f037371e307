// Package access gives an mco-agent its identity on mco: one ServiceAccount
// per Pull cluster, allowed only what that cluster's agent needs: its own
// Cluster and its status, its own Lease, Events, renewing its own token,
// and the ResourceInterpreterCustomizations interpretation reads (RBAC,
// below); and its own execution namespace's Works and their status
// (mco-apiserver's agent authorizer, by identity: a Role there would go
// with the namespace). RBAC cannot limit a create to a name; mco-apiserver's
// agent admission (AgentCluster tells it whose identity a user is) refuses
// an agent creating or changing a Cluster, Lease or Work of another cluster.
package access

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/authentication/serviceaccount"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/join"
)

// Namespace holds the agents' ServiceAccounts on mco (and the Clusters'
// Leases).
const Namespace = join.Namespace

// serviceAccountPrefix starts the name of each agent's ServiceAccount.
const serviceAccountPrefix = "mco-agent-"

// ManagedByLabel marks what this package creates.
const ManagedByLabel = "agent.mco-org.github.io/cluster"

// ServiceAccountName is the name of cluster's agent's ServiceAccount.
func ServiceAccountName(cluster string) string { return serviceAccountPrefix + cluster }

// AgentCluster returns the cluster whose agent user is, false when user is
// no agent.
func AgentCluster(user string) (string, bool) {
	ns, name, err := serviceaccount.SplitUsername(user)
	if err != nil || ns != Namespace || !strings.HasPrefix(name, serviceAccountPrefix) {
		return "", false
	}
	cluster := strings.TrimPrefix(name, serviceAccountPrefix)
	return cluster, cluster != ""
}

// clusterRoleName names the cluster-wide rights of cluster's agent; the
// namespaced Roles and every binding take the same name.
func clusterRoleName(cluster string) string { return "mco:agent:" + cluster }

// MetricsConfigMapName is the ConfigMap in Namespace where a Pull
// cluster's agent reports its member's metrics for mco-apiserver's
// metrics.k8s.io.
func MetricsConfigMapName(cluster string) string { return cluster + "-metrics" }

// Objects are the ServiceAccount, roles and bindings of cluster's agent,
// in the order they are to be created.
type Objects struct {
	ServiceAccount *corev1.ServiceAccount
	ClusterRole    *rbacv1.ClusterRole
	Roles          []*rbacv1.Role
	ClusterBinding *rbacv1.ClusterRoleBinding
	RoleBindings   []*rbacv1.RoleBinding
}

// For returns the objects of cluster's agent.
func For(cluster string) Objects {
	sa := ServiceAccountName(cluster)
	name := clusterRoleName(cluster)
	meta := func(namespace string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Name: name, Namespace: namespace, Labels: map[string]string{ManagedByLabel: cluster}}
	}
	subject := []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: sa, Namespace: Namespace}}
	own := []string{cluster}
	clusterGroup := []string{clusterv1alpha1.GroupName}
	roles := []*rbacv1.Role{
		{ObjectMeta: meta(Namespace), Rules: []rbacv1.PolicyRule{
			// create cannot name the Lease: the agent admission does.
			{APIGroups: []string{"coordination.k8s.io"}, Resources: []string{"leases"}, Verbs: []string{"create"}},
			{APIGroups: []string{"coordination.k8s.io"}, Resources: []string{"leases"}, ResourceNames: own, Verbs: []string{"get", "list", "watch", "update", "patch", "delete"}},
			// create cannot name the ConfigMap: the agent admission does.
			{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"create"}},
			{APIGroups: []string{""}, Resources: []string{"configmaps"}, ResourceNames: []string{MetricsConfigMapName(cluster)}, Verbs: []string{"get", "update", "patch", "delete"}},
			// The agent renews its own credential.
			{APIGroups: []string{""}, Resources: []string{"serviceaccounts/token"}, ResourceNames: []string{sa}, Verbs: []string{"create"}},
		}},
	}
	out := Objects{
		ServiceAccount: &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: sa, Namespace: Namespace, Labels: map[string]string{ManagedByLabel: cluster}}},
		ClusterRole: &rbacv1.ClusterRole{ObjectMeta: meta(""), Rules: []rbacv1.PolicyRule{
			// create cannot name the Cluster: the agent admission does.
			{APIGroups: clusterGroup, Resources: []string{"clusters"}, Verbs: []string{"create"}},
			{APIGroups: clusterGroup, Resources: []string{"clusters"}, ResourceNames: own, Verbs: []string{"get", "list", "watch", "update", "patch"}},
			{APIGroups: clusterGroup, Resources: []string{"clusters/status"}, ResourceNames: own, Verbs: []string{"get", "update", "patch"}},
			{APIGroups: []string{"config.karmada.io"}, Resources: []string{"resourceinterpretercustomizations", "resourceinterpreterwebhookconfigurations"}, Verbs: []string{"get", "list", "watch"}},
			{APIGroups: []string{"", "events.k8s.io"}, Resources: []string{"events"}, Verbs: []string{"create", "update", "patch"}},
		}},
		Roles: roles,
		ClusterBinding: &rbacv1.ClusterRoleBinding{ObjectMeta: meta(""), Subjects: subject,
			RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: name}},
	}
	for _, r := range roles {
		out.RoleBindings = append(out.RoleBindings, &rbacv1.RoleBinding{ObjectMeta: meta(r.Namespace), Subjects: subject,
			RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: name}})
	}
	return out
}
