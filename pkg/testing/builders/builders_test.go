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

package builders_test

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/testing/builders"
)

func TestClusterBuilder(t *testing.T) {
	t.Parallel()
	b := builders.NewCluster("m1").WithLabel("env", "prod").WithProvider("aws").WithRegion("eu").WithZones("a", "b").
		WithTaint("k", "v", corev1.TaintEffectNoSchedule).
		WithAPI("apps/v1", "Deployment").WithAPI("v1", "Pod").WithAPI("apps/v1", "StatefulSet").
		WithCondition("Ready", metav1.ConditionFalse).WithCondition("Ready", metav1.ConditionTrue)
	c := b.Build()
	if c.Name != "m1" || c.Labels["env"] != "prod" || c.Spec.Provider != "aws" || c.Spec.Region != "eu" || len(c.Spec.Zones) != 2 {
		t.Errorf("unexpected cluster %+v", c)
	}
	if got := c.Spec.Taints; len(got) != 1 || got[0].Key != "k" || got[0].Value != "v" || got[0].Effect != corev1.TaintEffectNoSchedule {
		t.Errorf("taints = %+v", got)
	}
	apis := c.Status.APIEnablements
	if len(apis) != 2 || apis[0].GroupVersion != "apps/v1" || len(apis[0].Resources) != 2 || apis[0].Resources[1].Name != "statefulsets" {
		t.Errorf("API enablements are not merged per group/version: %+v", apis)
	}
	if conds := c.Status.Conditions; len(conds) != 1 || conds[0].Status != metav1.ConditionTrue {
		t.Errorf("conditions = %+v, want one Ready=True", conds)
	}
	c.Labels["env"] = "changed"
	if b.Build().Labels["env"] != "prod" {
		t.Error("Build should return an independent copy")
	}
}

func TestBindingBuilder(t *testing.T) {
	t.Parallel()
	rb := builders.NewBinding("web").ForResource("batch/v1", "Job").WithReplicas(3).
		ScheduledTo("m1", 2).EvictingFrom("m2").WithObservedAffinity("primary").
		WithLabelSelector(map[string]string{"env": "prod"}).WithFieldSelector("region", corev1.NodeSelectorOpIn, "eu").
		WithClusterNames("m1").WithExclude("m3").
		WithToleration(corev1.Toleration{Operator: corev1.TolerationOpExists}).
		WithSpread(policyv1alpha1.SpreadConstraint{SpreadByField: policyv1alpha1.SpreadByFieldCluster}).
		Divided(policyv1alpha1.ReplicaDivisionPreferenceAggregated).Build()
	spec := rb.Spec
	if spec.Resource.APIVersion != "batch/v1" || spec.Resource.Kind != "Job" || spec.Replicas != 3 {
		t.Errorf("resource = %+v, replicas %d", spec.Resource, spec.Replicas)
	}
	if len(spec.Clusters) != 1 || spec.GracefulEvictionTasks[0].FromCluster != "m2" || rb.Status.SchedulerObservedAffinityName != "primary" {
		t.Errorf("result, eviction or observed affinity not set: %+v %+v", spec.Clusters, rb.Status)
	}
	a := spec.Placement.ClusterAffinity
	if a.LabelSelector.MatchLabels["env"] != "prod" || a.FieldSelector.MatchExpressions[0].Key != "region" ||
		a.ClusterNames[0] != "m1" || a.ExcludeClusters[0] != "m3" {
		t.Errorf("affinity = %+v", a)
	}
	p := spec.Placement
	if len(p.ClusterTolerations) != 1 || len(p.SpreadConstraints) != 1 ||
		p.ReplicaScheduling.ReplicaDivisionPreference != policyv1alpha1.ReplicaDivisionPreferenceAggregated {
		t.Errorf("placement = %+v", p)
	}
	if builders.NewBinding("x").WithoutPlacement().Build().Spec.Placement != nil {
		t.Error("WithoutPlacement should clear the placement")
	}
	if got := builders.NewBinding("x").Duplicated().Build().Spec.Placement.ReplicaScheduling.ReplicaSchedulingType; got != policyv1alpha1.ReplicaSchedulingTypeDuplicated {
		t.Errorf("Duplicated() set %q", got)
	}
}

func TestCapacityAndWeightBuilders(t *testing.T) {
	t.Parallel()
	c := builders.NewCluster("m1").WithAllocatable(corev1.ResourcePods, "110").WithAllocated(corev1.ResourcePods, "10").Build()
	sum := c.Status.ResourceSummary
	if pods := sum.Allocatable[corev1.ResourcePods]; pods.Value() != 110 {
		t.Errorf("allocatable pods = %s, want 110", pods.String())
	}
	if pods := sum.Allocated[corev1.ResourcePods]; pods.Value() != 10 {
		t.Errorf("allocated pods = %s, want 10", pods.String())
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	rb := builders.NewBinding("web").WithUID("u1").WithRequest(corev1.ResourceCPU, "100m").
		WithStaticWeight(2, policyv1alpha1.ClusterAffinity{ClusterNames: []string{"m1"}}).DynamicWeight().
		RescheduleTriggeredAt(at).LastScheduledAt(at.Add(-time.Minute)).Build()
	if rb.UID != "u1" || rb.Spec.ReplicaRequirements.ResourceRequest.Cpu().MilliValue() != 100 {
		t.Errorf("uid %q, requirements %+v", rb.UID, rb.Spec.ReplicaRequirements)
	}
	rs := rb.Spec.Placement.ReplicaScheduling
	if rs.ReplicaSchedulingType != policyv1alpha1.ReplicaSchedulingTypeDivided ||
		rs.ReplicaDivisionPreference != policyv1alpha1.ReplicaDivisionPreferenceWeighted ||
		len(rs.WeightPreference.StaticWeightList) != 1 || rs.WeightPreference.DynamicWeight != policyv1alpha1.DynamicWeightByAvailableReplicas {
		t.Errorf("replica scheduling = %+v", rs)
	}
	if !rb.Spec.RescheduleTriggeredAt.Time.Equal(at) || !rb.Status.LastScheduledTime.Time.Equal(at.Add(-time.Minute)) {
		t.Errorf("times = %v, %v", rb.Spec.RescheduleTriggeredAt, rb.Status.LastScheduledTime)
	}
}
