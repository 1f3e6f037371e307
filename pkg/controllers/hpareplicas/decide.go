// Package hpareplicas lets the members' HorizontalPodAutoscalers own the
// replicas of what they scale, as Karmada's hpaScaleTargetMarker and
// deploymentReplicasSyncer do: the scale target of a propagated
// autoscaler carries workload.RetainReplicasLabel (so that the members'
// copies keep the replicas their autoscalers chose), and a Divided
// Deployment with that label takes the sum of its members' replicas as its
// own spec.replicas.
package hpareplicas

import (
	"encoding/json"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/runtime/schema"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/template"
	"github.com/mco-org/mco/pkg/workload"
)

// targetOf is the template an autoscaler scales, in its namespace.
func targetOf(hpa *autoscalingv2.HorizontalPodAutoscaler) (template.Key, bool) {
	ref := hpa.Spec.ScaleTargetRef
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil || ref.Kind == "" || ref.Name == "" {
		return template.Key{}, false
	}
	return template.Key{GVK: gv.WithKind(ref.Kind), Namespace: hpa.Namespace, Name: ref.Name}, true
}

// propagated tells whether a policy claims the autoscaler.
func propagated(hpa *autoscalingv2.HorizontalPodAutoscaler) bool {
	l := hpa.Labels
	return l[policyv1alpha1.PropagationPolicyPermanentIDLabel] != "" || l[policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel] != ""
}

// marked tells whether target should carry the retain-replicas label: some
// propagated autoscaler not being deleted scales it.
func marked(target template.Key, hpas []*autoscalingv2.HorizontalPodAutoscaler) bool {
	for _, h := range hpas {
		if h.DeletionTimestamp != nil || !propagated(h) {
			continue
		}
		if k, ok := targetOf(h); ok && k.Name == target.Name && k.Namespace == target.Namespace && k.GVK.GroupKind() == target.GVK.GroupKind() {
			return true
		}
	}
	return false
}

// syncedReplicas is the spec.replicas a Divided Deployment whose members'
// autoscalers own its replicas should have: the sum of the members'
// replicas, once every member has caught up with the template's
// generation and no rollout is in flight (surge pods would inflate it).
// ok is false when spec.replicas should stay as it is.
func syncedReplicas(d *appsv1.Deployment) (int32, bool) {
	s := d.Status
	if s.ObservedGeneration != d.Generation || s.Replicas != s.UpdatedReplicas || s.Replicas <= 0 {
		return 0, false
	}
	if d.Spec.Replicas != nil && *d.Spec.Replicas == s.Replicas {
		return 0, false
	}
	return s.Replicas, true
}

// membersSettled tells whether every member a binding targets has reported
// its copy of the template at generation templateGen, with its own
// controller caught up and at least one replica, all of them updated. A
// member's Deployment reports zero replicas between creating its
// ReplicaSet and that ReplicaSet's first pods; summing then would shrink
// the template, and the scheduler would take replicas from that member.
func membersSettled(spec *workv1alpha2.ResourceBindingSpec, status *workv1alpha2.ResourceBindingStatus, templateGen int64) bool {
	reported := make(map[string]workv1alpha2.AggregatedStatusItem, len(status.AggregatedStatus))
	for _, it := range status.AggregatedStatus {
		reported[it.ClusterName] = it
	}
	for _, tc := range spec.Clusters {
		it, ok := reported[tc.Name]
		if !ok || !it.Applied || it.Status == nil {
			return false
		}
		var s workload.DeploymentStatus
		if err := json.Unmarshal(it.Status.Raw, &s); err != nil {
			return false
		}
		if s.ResourceTemplateGeneration != templateGen || s.ObservedGeneration != s.Generation ||
			s.Replicas <= 0 || s.Replicas != s.UpdatedReplicas {
			return false
		}
	}
	return len(spec.Clusters) > 0
}
