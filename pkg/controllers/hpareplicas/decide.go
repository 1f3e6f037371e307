// Package hpareplicas lets the members' HorizontalPodAutoscalers own the
// replicas of what they scale, as Karmada's hpaScaleTargetMarker and
// deploymentReplicasSyncer do: the scale target of a propagated
// autoscaler carries workload.RetainReplicasLabel (so that the members'
// copies keep the replicas their autoscalers chose), and a Divided
// Deployment with that label takes the sum of its members' replicas as its
// own spec.replicas.
package hpareplicas

import (
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/runtime/schema"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/template"
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
