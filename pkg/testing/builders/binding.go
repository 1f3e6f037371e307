/*
Copyright The mco Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package builders

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// BindingBuilder builds a ResourceBinding. It starts as an apps/v1
// Deployment in namespace "default" with an empty placement.
type BindingBuilder struct {
	binding workv1alpha2.ResourceBinding
}

// NewBinding starts a binding with the given name.
func NewBinding(name string) *BindingBuilder {
	b := &BindingBuilder{}
	b.binding.Name, b.binding.Namespace = name, "default"
	b.binding.Spec.Resource = workv1alpha2.ObjectReference{
		APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: name,
	}
	b.binding.Spec.Placement = &policyv1alpha1.Placement{}
	return b
}

// ForResource sets the template's apiVersion and kind.
func (b *BindingBuilder) ForResource(apiVersion, kind string) *BindingBuilder {
	b.binding.Spec.Resource.APIVersion, b.binding.Spec.Resource.Kind = apiVersion, kind
	return b
}

// WithReplicas sets spec.replicas.
func (b *BindingBuilder) WithReplicas(replicas int32) *BindingBuilder {
	b.binding.Spec.Replicas = replicas
	return b
}

// WithWorkloadGroups sets spec.workloadAffinityGroups.
func (b *BindingBuilder) WithWorkloadGroups(affinity, antiAffinity string) *BindingBuilder {
	b.binding.Spec.WorkloadAffinityGroups = &workv1alpha2.WorkloadAffinityGroups{AffinityGroup: affinity, AntiAffinityGroup: antiAffinity}
	return b
}

// ScheduledTo appends a previous result entry to spec.clusters.
func (b *BindingBuilder) ScheduledTo(cluster string, replicas int32) *BindingBuilder {
	b.binding.Spec.Clusters = append(b.binding.Spec.Clusters, workv1alpha2.TargetCluster{Name: cluster, Replicas: replicas})
	return b
}

// EvictingFrom appends a graceful eviction task away from cluster.
func (b *BindingBuilder) EvictingFrom(cluster string) *BindingBuilder {
	b.binding.Spec.GracefulEvictionTasks = append(b.binding.Spec.GracefulEvictionTasks, workv1alpha2.GracefulEvictionTask{
		FromCluster: cluster,
		Reason:      workv1alpha2.EvictionReasonTaintUntolerated,
		Producer:    workv1alpha2.EvictionProducerTaintManager,
	})
	return b
}

// WithObservedAffinity sets status.schedulerObservingAffinityName.
func (b *BindingBuilder) WithObservedAffinity(name string) *BindingBuilder {
	b.binding.Status.SchedulerObservedAffinityName = name
	return b
}

// WithoutPlacement clears spec.placement.
func (b *BindingBuilder) WithoutPlacement() *BindingBuilder {
	b.binding.Spec.Placement = nil
	return b
}

// affinity returns the placement's clusterAffinity, creating it.
func (b *BindingBuilder) affinity() *policyv1alpha1.ClusterAffinity {
	p := b.placement()
	if p.ClusterAffinity == nil {
		p.ClusterAffinity = &policyv1alpha1.ClusterAffinity{}
	}
	return p.ClusterAffinity
}

func (b *BindingBuilder) placement() *policyv1alpha1.Placement {
	if b.binding.Spec.Placement == nil {
		b.binding.Spec.Placement = &policyv1alpha1.Placement{}
	}
	return b.binding.Spec.Placement
}

// WithClusterAffinity replaces the placement's clusterAffinity.
func (b *BindingBuilder) WithClusterAffinity(affinity *policyv1alpha1.ClusterAffinity) *BindingBuilder {
	b.placement().ClusterAffinity = affinity
	return b
}

// WithClusterAffinities replaces the placement's clusterAffinities.
func (b *BindingBuilder) WithClusterAffinities(terms ...policyv1alpha1.ClusterAffinityTerm) *BindingBuilder {
	b.placement().ClusterAffinities = terms
	return b
}

// WithLabelSelector sets the affinity's labelSelector to matchLabels.
func (b *BindingBuilder) WithLabelSelector(matchLabels map[string]string) *BindingBuilder {
	b.affinity().LabelSelector = &metav1.LabelSelector{MatchLabels: matchLabels}
	return b
}

// WithFieldSelector adds one field selector expression.
func (b *BindingBuilder) WithFieldSelector(key string, op corev1.NodeSelectorOperator, values ...string) *BindingBuilder {
	a := b.affinity()
	if a.FieldSelector == nil {
		a.FieldSelector = &policyv1alpha1.FieldSelector{}
	}
	a.FieldSelector.MatchExpressions = append(a.FieldSelector.MatchExpressions,
		corev1.NodeSelectorRequirement{Key: key, Operator: op, Values: values})
	return b
}

// WithClusterNames sets the affinity's clusterNames.
func (b *BindingBuilder) WithClusterNames(names ...string) *BindingBuilder {
	b.affinity().ClusterNames = names
	return b
}

// WithExclude sets the affinity's exclude list.
func (b *BindingBuilder) WithExclude(names ...string) *BindingBuilder {
	b.affinity().ExcludeClusters = names
	return b
}

// WithToleration adds a cluster toleration.
func (b *BindingBuilder) WithToleration(t corev1.Toleration) *BindingBuilder {
	p := b.placement()
	p.ClusterTolerations = append(p.ClusterTolerations, t)
	return b
}

// WithSpread adds spread constraints.
func (b *BindingBuilder) WithSpread(constraints ...policyv1alpha1.SpreadConstraint) *BindingBuilder {
	p := b.placement()
	p.SpreadConstraints = append(p.SpreadConstraints, constraints...)
	return b
}

// Divided asks for Divided scheduling with the given preference.
func (b *BindingBuilder) Divided(preference policyv1alpha1.ReplicaDivisionPreference) *BindingBuilder {
	b.placement().ReplicaScheduling = &policyv1alpha1.ReplicaSchedulingStrategy{
		ReplicaSchedulingType:     policyv1alpha1.ReplicaSchedulingTypeDivided,
		ReplicaDivisionPreference: preference,
	}
	return b
}

// Duplicated asks for Duplicated scheduling.
func (b *BindingBuilder) Duplicated() *BindingBuilder {
	b.placement().ReplicaScheduling = &policyv1alpha1.ReplicaSchedulingStrategy{
		ReplicaSchedulingType: policyv1alpha1.ReplicaSchedulingTypeDuplicated,
	}
	return b
}

// WithUID sets metadata.uid, which breaks ties in replica division.
func (b *BindingBuilder) WithUID(uid string) *BindingBuilder {
	b.binding.UID = types.UID(uid)
	return b
}

// WithRequest sets what one replica requests of a resource; quantity must
// parse (e.g. "100m", "128Mi").
func (b *BindingBuilder) WithRequest(name corev1.ResourceName, quantity string) *BindingBuilder {
	if b.binding.Spec.ReplicaRequirements == nil {
		b.binding.Spec.ReplicaRequirements = &workv1alpha2.ReplicaRequirements{}
	}
	setQuantity(&b.binding.Spec.ReplicaRequirements.ResourceRequest, name, quantity)
	return b
}

// WithStaticWeight adds a static weight rule, switching to Divided Weighted
// scheduling if the binding is not Divided yet.
func (b *BindingBuilder) WithStaticWeight(weight int64, target policyv1alpha1.ClusterAffinity) *BindingBuilder {
	prefs := b.weightPreference()
	prefs.StaticWeightList = append(prefs.StaticWeightList, policyv1alpha1.StaticClusterWeight{TargetCluster: target, Weight: weight})
	return b
}

// DynamicWeight asks for Divided Weighted scheduling by available replicas.
func (b *BindingBuilder) DynamicWeight() *BindingBuilder {
	b.weightPreference().DynamicWeight = policyv1alpha1.DynamicWeightByAvailableReplicas
	return b
}

func (b *BindingBuilder) weightPreference() *policyv1alpha1.ClusterPreferences {
	rs := b.placement().ReplicaScheduling
	if rs == nil || rs.ReplicaSchedulingType != policyv1alpha1.ReplicaSchedulingTypeDivided {
		b.Divided(policyv1alpha1.ReplicaDivisionPreferenceWeighted)
		rs = b.placement().ReplicaScheduling
	}
	if rs.WeightPreference == nil {
		rs.WeightPreference = &policyv1alpha1.ClusterPreferences{}
	}
	return rs.WeightPreference
}

// RescheduleTriggeredAt sets spec.rescheduleTriggeredAt.
func (b *BindingBuilder) RescheduleTriggeredAt(t time.Time) *BindingBuilder {
	b.binding.Spec.RescheduleTriggeredAt = &metav1.Time{Time: t}
	return b
}

// LastScheduledAt sets status.lastScheduledTime.
func (b *BindingBuilder) LastScheduledAt(t time.Time) *BindingBuilder {
	b.binding.Status.LastScheduledTime = &metav1.Time{Time: t}
	return b
}

// Build returns a copy of the binding, so the builder can be reused.
func (b *BindingBuilder) Build() *workv1alpha2.ResourceBinding {
	return b.binding.DeepCopy()
}
