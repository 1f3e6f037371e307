// Package agentrestriction is mco-apiserver's admission rule for mco-agent
// identities, as Kubernetes' NodeRestriction is for kubelets: RBAC gives
// every agent the same kind of rights, and cannot tie a create to a name,
// so this rule refuses an agent creating, changing or deleting any Cluster,
// Lease, ConfigMap or Work that is not its own cluster's (the ConfigMap
// where a Pull cluster's agent reports its member's metrics), and creating or deleting
// any Work but those reporting its member's EndpointSlices.
package agentrestriction

import (
	"context"
	"fmt"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"

	"github.com/mco-org/mco/pkg/agent/access"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/mcs"
	"github.com/mco-org/mco/pkg/names"
)

// PluginName names the rule.
const PluginName = "MCOAgentRestriction"

var (
	clusters   = clusterv1alpha1.SchemeGroupVersion.WithResource("clusters").GroupResource()
	leases     = schema.GroupResource{Group: "coordination.k8s.io", Resource: "leases"}
	configMaps = schema.GroupResource{Resource: "configmaps"}
	works      = schema.GroupResource{Group: "work.karmada.io", Resource: "works"}
)

// Plugin is the admission rule.
type Plugin struct {
	*admission.Handler
}

var _ admission.ValidationInterface = &Plugin{}

// New returns the rule.
func New() *Plugin {
	return &Plugin{Handler: admission.NewHandler(admission.Create, admission.Update, admission.Delete)}
}

// Validate implements admission.ValidationInterface.
func (p *Plugin) Validate(_ context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	if a.GetUserInfo() == nil {
		return nil
	}
	cluster, ok := access.AgentCluster(a.GetUserInfo().GetName())
	if !ok {
		return nil
	}
	if why := refusal(cluster, a); why != "" {
		return admission.NewForbidden(a, fmt.Errorf("agent of cluster %s: %s", cluster, why))
	}
	return nil
}

// refusal says why the agent of cluster may not make request a, or "".
func refusal(cluster string, a admission.Attributes) string {
	switch a.GetResource().GroupResource() {
	case clusters:
		if a.GetName() != cluster {
			return fmt.Sprintf("may not %s cluster %s", verb(a), a.GetName())
		}
		if a.GetSubresource() != "" {
			return ""
		}
		return clusterChange(a)
	case leases:
		if a.GetNamespace() != access.Namespace || a.GetName() != cluster {
			return fmt.Sprintf("may not %s lease %s/%s; its own is %s/%s", verb(a), a.GetNamespace(), a.GetName(), access.Namespace, cluster)
		}
	case configMaps:
		if own := access.MetricsConfigMapName(cluster); a.GetNamespace() != access.Namespace || a.GetName() != own {
			return fmt.Sprintf("may not %s configmap %s/%s; its own is %s/%s", verb(a), a.GetNamespace(), a.GetName(), access.Namespace, own)
		}
	case works:
		if a.GetNamespace() != names.ExecutionSpace(cluster) {
			return fmt.Sprintf("may not %s works in namespace %s", verb(a), a.GetNamespace())
		}
		if a.GetSubresource() == "" {
			return workChange(a)
		}
	}
	return ""
}

// workChange checks a Work an agent writes in its own namespace: it
// creates and deletes only the Works that report its member's
// EndpointSlices (never dispatched, EndpointSlices only), and does not
// turn one kind of Work into the other.
func workChange(a admission.Attributes) string {
	w, _ := a.GetObject().(*workv1alpha1.Work)
	old, _ := a.GetOldObject().(*workv1alpha1.Work)
	collected := func(w *workv1alpha1.Work) bool { return w != nil && mcs.IsCollected(w) }
	switch a.GetOperation() {
	case admission.Create:
		if !collected(w) {
			return "may create only the Works that report its member's EndpointSlices (suspended, labelled " + mcs.CollectedManagedByLabel + ", EndpointSlices only)"
		}
	case admission.Delete:
		if !collected(old) {
			return fmt.Sprintf("may delete only the Works that report its member's EndpointSlices, not %s", a.GetName())
		}
	case admission.Update:
		if old != nil && w != nil && collected(old) != collected(w) {
			return "may not turn a Work that reports EndpointSlices into another or back"
		}
	}
	return ""
}

// clusterChange checks what an agent writes into its own Cluster: a Pull
// Cluster without credentials when it registers; later only the member's
// id where none was recorded, and labels.
func clusterChange(a admission.Attributes) string {
	c, ok := a.GetObject().(*clusterv1alpha1.Cluster)
	switch a.GetOperation() {
	case admission.Delete:
		return "may not delete its Cluster (kubectl mco unregister does, as an admin)"
	case admission.Create:
		if !ok {
			return ""
		}
		if c.Spec.SyncMode != clusterv1alpha1.Pull {
			return fmt.Sprintf("may register its cluster in Pull mode only, not %q", c.Spec.SyncMode)
		}
		if c.Spec.SecretRef != nil || c.Spec.ImpersonatorSecretRef != nil || c.Spec.APIEndpoint != "" {
			return "may not give mco credentials or an endpoint of the member: mco does not dial a Pull cluster"
		}
	case admission.Update:
		old, oldOK := a.GetOldObject().(*clusterv1alpha1.Cluster)
		if !ok || !oldOK {
			return ""
		}
		want := old.Spec.DeepCopy()
		if want.ID == "" {
			want.ID = c.Spec.ID
		}
		if !apiequality.Semantic.DeepEqual(*want, c.Spec) {
			return "may not change its Cluster's spec, save recording the member's id once"
		}
	}
	return ""
}

func verb(a admission.Attributes) string {
	switch a.GetOperation() {
	case admission.Create:
		return "create"
	case admission.Update:
		return "change"
	case admission.Delete:
		return "delete"
	}
	return string(a.GetOperation())
}
