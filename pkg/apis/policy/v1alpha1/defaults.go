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

package v1alpha1

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
)

// Values filled in for fields a user leaves empty. They are the values
// Karmada's CRD schemas and mutating webhook fill in.
const (
	// DefaultSchedulerName is the scheduler used when spec.schedulerName is empty.
	DefaultSchedulerName = "default-scheduler"
	// DefaultApplicationFailoverTolerationSeconds is how long an application
	// may stay unhealthy before it is moved, when the policy does not say.
	DefaultApplicationFailoverTolerationSeconds int32 = 300
	// DefaultGracePeriodSeconds is how long a graceful purge waits for the new
	// copy to become healthy, when the policy does not say.
	DefaultGracePeriodSeconds int32 = 600
	// DefaultSpreadMinGroups is the fewest cluster groups a spread constraint
	// picks, when the policy does not say.
	DefaultSpreadMinGroups = 1

	// serviceImportGroup and serviceImportKind identify the multi-cluster
	// services ServiceImport (v1alpha1 as Karmada, or the MCS API's
	// v1beta1); selecting it turns on propagateDeps.
	serviceImportGroup = "multicluster.x-k8s.io"
	serviceImportKind  = "ServiceImport"
)

func addDefaultingFuncs(scheme *runtime.Scheme) error {
	scheme.AddTypeDefaultingFunc(&PropagationPolicy{}, func(obj interface{}) {
		SetDefaults_PropagationPolicy(obj.(*PropagationPolicy))
	})
	scheme.AddTypeDefaultingFunc(&PropagationPolicyList{}, func(obj interface{}) {
		list := obj.(*PropagationPolicyList)
		for i := range list.Items {
			SetDefaults_PropagationPolicy(&list.Items[i])
		}
	})
	scheme.AddTypeDefaultingFunc(&ClusterPropagationPolicy{}, func(obj interface{}) {
		SetDefaults_ClusterPropagationPolicy(obj.(*ClusterPropagationPolicy))
	})
	scheme.AddTypeDefaultingFunc(&ClusterPropagationPolicyList{}, func(obj interface{}) {
		list := obj.(*ClusterPropagationPolicyList)
		for i := range list.Items {
			SetDefaults_ClusterPropagationPolicy(&list.Items[i])
		}
	})
	scheme.AddTypeDefaultingFunc(&OverridePolicy{}, func(obj interface{}) {
		SetDefaults_OverridePolicy(obj.(*OverridePolicy))
	})
	scheme.AddTypeDefaultingFunc(&OverridePolicyList{}, func(obj interface{}) {
		list := obj.(*OverridePolicyList)
		for i := range list.Items {
			SetDefaults_OverridePolicy(&list.Items[i])
		}
	})
	scheme.AddTypeDefaultingFunc(&ClusterOverridePolicy{}, func(obj interface{}) {
		SetDefaults_ClusterOverridePolicy(obj.(*ClusterOverridePolicy))
	})
	scheme.AddTypeDefaultingFunc(&ClusterOverridePolicyList{}, func(obj interface{}) {
		list := obj.(*ClusterOverridePolicyList)
		for i := range list.Items {
			SetDefaults_ClusterOverridePolicy(&list.Items[i])
		}
	})
	return nil
}

// SetDefaults_PropagationPolicy defaults the spec and points resource
// selectors without a namespace at the policy's own namespace. When the
// object has no namespace yet (the request path supplies it later) the
// selectors are left alone; call this again once the namespace is known.
func SetDefaults_PropagationPolicy(policy *PropagationPolicy) {
	SetDefaults_PropagationSpec(&policy.Spec)
	SetDefaults_ResourceSelectorNamespaces(policy.Spec.ResourceSelectors, policy.Namespace)
}

// SetDefaults_ClusterPropagationPolicy defaults the spec. Selectors keep an
// empty namespace, which for a cluster-wide policy means "any namespace".
func SetDefaults_ClusterPropagationPolicy(policy *ClusterPropagationPolicy) {
	SetDefaults_PropagationSpec(&policy.Spec)
}

// SetDefaults_OverridePolicy points resource selectors without a namespace at
// the policy's own namespace, under the same caveat as for PropagationPolicy.
func SetDefaults_OverridePolicy(policy *OverridePolicy) {
	SetDefaults_ResourceSelectorNamespaces(policy.Spec.ResourceSelectors, policy.Namespace)
}

// SetDefaults_ClusterOverridePolicy exists for symmetry: Karmada fills in
// nothing for a ClusterOverridePolicy.
func SetDefaults_ClusterOverridePolicy(_ *ClusterOverridePolicy) {}

// SetDefaults_ResourceSelectorNamespaces gives every selector with an empty
// namespace the given one. An empty namespace changes nothing.
func SetDefaults_ResourceSelectorNamespaces(selectors []ResourceSelector, namespace string) {
	if namespace == "" {
		return
	}
	for i := range selectors {
		if selectors[i].Namespace == "" {
			selectors[i].Namespace = namespace
		}
	}
}

// SetDefaults_PropagationSpec fills in the spec fields Karmada fills in:
// priority 0, preemption Never, conflictResolution Abort, the default
// scheduler, the placement and failover defaults, and propagateDeps when a
// ServiceImport is selected (its derived Service and EndpointSlices must
// follow it).
func SetDefaults_PropagationSpec(spec *PropagationSpec) {
	if spec.Priority == nil {
		var zero int32
		spec.Priority = &zero
	}
	if spec.Preemption == "" {
		spec.Preemption = PreemptNever
	}
	if spec.ConflictResolution == "" {
		spec.ConflictResolution = ConflictAbort
	}
	if spec.SchedulerName == "" {
		spec.SchedulerName = DefaultSchedulerName
	}
	if selectsServiceImport(spec.ResourceSelectors) {
		spec.PropagateDeps = true
	}
	SetDefaults_Placement(&spec.Placement)
	if spec.Failover != nil {
		SetDefaults_FailoverBehavior(spec.Failover)
	}
}

// SetDefaults_Placement fills in spread constraints (group by cluster when
// neither a field nor a label is given, at least one group) and replica
// scheduling (Divided when the type is empty, Weighted division for Divided
// when no preference is given).
func SetDefaults_Placement(placement *Placement) {
	for i := range placement.SpreadConstraints {
		constraint := &placement.SpreadConstraints[i]
		if constraint.SpreadByField == "" && constraint.SpreadByLabel == "" {
			constraint.SpreadByField = SpreadByFieldCluster
		}
		if constraint.MinGroups == 0 {
			constraint.MinGroups = DefaultSpreadMinGroups
		}
	}
	strategy := placement.ReplicaScheduling
	if strategy == nil {
		return
	}
	if strategy.ReplicaSchedulingType == "" {
		strategy.ReplicaSchedulingType = ReplicaSchedulingTypeDivided
	}
	if strategy.ReplicaSchedulingType == ReplicaSchedulingTypeDivided && strategy.ReplicaDivisionPreference == "" {
		strategy.ReplicaDivisionPreference = ReplicaDivisionPreferenceWeighted
	}
}

// SetDefaults_FailoverBehavior fills in the application failover toleration
// (300s), purge modes (Gracefully) and, for a graceful purge, the grace
// period (600s).
func SetDefaults_FailoverBehavior(failover *FailoverBehavior) {
	if app := failover.Application; app != nil {
		if app.DecisionConditions.TolerationSeconds == nil {
			seconds := DefaultApplicationFailoverTolerationSeconds
			app.DecisionConditions.TolerationSeconds = &seconds
		}
		if app.PurgeMode == "" {
			app.PurgeMode = PurgeModeGracefully
		}
		if app.PurgeMode == PurgeModeGracefully && app.GracePeriodSeconds == nil {
			seconds := DefaultGracePeriodSeconds
			app.GracePeriodSeconds = &seconds
		}
	}
	if cluster := failover.Cluster; cluster != nil && cluster.PurgeMode == "" {
		cluster.PurgeMode = PurgeModeGracefully
	}
}

func selectsServiceImport(selectors []ResourceSelector) bool {
	for _, selector := range selectors {
		if strings.HasPrefix(selector.APIVersion, serviceImportGroup+"/") && selector.Kind == serviceImportKind {
			return true
		}
	}
	return false
}
