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

// Package builders builds API objects for tests with a fluent, readable API:
//
//	builders.NewCluster("m1").WithLabel("env", "prod").WithRegion("eu").
//		WithTaint("cluster.karmada.io/not-ready", "", corev1.TaintEffectNoSchedule).
//		WithAPI("apps/v1", "Deployment").Build()
package builders

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

// ClusterBuilder builds a Cluster.
type ClusterBuilder struct {
	cluster clusterv1alpha1.Cluster
}

// NewCluster starts a Push-mode cluster with the given name.
func NewCluster(name string) *ClusterBuilder {
	b := &ClusterBuilder{}
	b.cluster.Name = name
	b.cluster.Spec.SyncMode = clusterv1alpha1.Push
	return b
}

// WithLabel sets one label.
func (b *ClusterBuilder) WithLabel(key, value string) *ClusterBuilder {
	if b.cluster.Labels == nil {
		b.cluster.Labels = map[string]string{}
	}
	b.cluster.Labels[key] = value
	return b
}

// WithProvider sets spec.provider.
func (b *ClusterBuilder) WithProvider(provider string) *ClusterBuilder {
	b.cluster.Spec.Provider = provider
	return b
}

// WithRegion sets spec.region.
func (b *ClusterBuilder) WithRegion(region string) *ClusterBuilder {
	b.cluster.Spec.Region = region
	return b
}

// WithZones sets spec.zones.
func (b *ClusterBuilder) WithZones(zones ...string) *ClusterBuilder {
	b.cluster.Spec.Zones = zones
	return b
}

// WithDeprecatedZone sets the deprecated spec.zone.
func (b *ClusterBuilder) WithDeprecatedZone(zone string) *ClusterBuilder {
	b.cluster.Spec.Zone = zone
	return b
}

// WithTaint adds a taint.
func (b *ClusterBuilder) WithTaint(key, value string, effect corev1.TaintEffect) *ClusterBuilder {
	b.cluster.Spec.Taints = append(b.cluster.Spec.Taints, corev1.Taint{Key: key, Value: value, Effect: effect})
	return b
}

// WithAPI records that the cluster serves the kinds under groupVersion. The
// resource name is the lower-cased kind plus "s", which is enough for tests.
func (b *ClusterBuilder) WithAPI(groupVersion string, kinds ...string) *ClusterBuilder {
	status := &b.cluster.Status
	idx := -1
	for i := range status.APIEnablements {
		if status.APIEnablements[i].GroupVersion == groupVersion {
			idx = i
		}
	}
	if idx < 0 {
		status.APIEnablements = append(status.APIEnablements, clusterv1alpha1.APIEnablement{GroupVersion: groupVersion})
		idx = len(status.APIEnablements) - 1
	}
	for _, kind := range kinds {
		status.APIEnablements[idx].Resources = append(status.APIEnablements[idx].Resources,
			clusterv1alpha1.APIResource{Name: strings.ToLower(kind) + "s", Kind: kind})
	}
	return b
}

// WithCondition sets a status condition.
func (b *ClusterBuilder) WithCondition(conditionType string, status metav1.ConditionStatus) *ClusterBuilder {
	for i := range b.cluster.Status.Conditions {
		if b.cluster.Status.Conditions[i].Type == conditionType {
			b.cluster.Status.Conditions[i].Status = status
			return b
		}
	}
	b.cluster.Status.Conditions = append(b.cluster.Status.Conditions, metav1.Condition{
		Type: conditionType, Status: status, Reason: "Test",
	})
	return b
}

// WithAllocatable sets status.resourceSummary.allocatable[name]; quantity
// must parse (e.g. "64", "256Gi", "500m").
func (b *ClusterBuilder) WithAllocatable(name corev1.ResourceName, quantity string) *ClusterBuilder {
	setQuantity(&b.summary().Allocatable, name, quantity)
	return b
}

// WithAllocated sets status.resourceSummary.allocated[name].
func (b *ClusterBuilder) WithAllocated(name corev1.ResourceName, quantity string) *ClusterBuilder {
	setQuantity(&b.summary().Allocated, name, quantity)
	return b
}

func (b *ClusterBuilder) summary() *clusterv1alpha1.ResourceSummary {
	if b.cluster.Status.ResourceSummary == nil {
		b.cluster.Status.ResourceSummary = &clusterv1alpha1.ResourceSummary{}
	}
	return b.cluster.Status.ResourceSummary
}

// setQuantity stores a parsed quantity; the builders serve tests, so a
// malformed literal panics like resource.MustParse.
func setQuantity(list *corev1.ResourceList, name corev1.ResourceName, quantity string) {
	if *list == nil {
		*list = corev1.ResourceList{}
	}
	(*list)[name] = resource.MustParse(quantity)
}

// Build returns a copy of the cluster, so the builder can be reused.
func (b *ClusterBuilder) Build() *clusterv1alpha1.Cluster {
	return b.cluster.DeepCopy()
}
