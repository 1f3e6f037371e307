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

// Names under which the kinds are served.
const (
	ResourceKindPropagationPolicy                   = "PropagationPolicy"
	ResourceSingularPropagationPolicy               = "propagationpolicy"
	ResourcePluralPropagationPolicy                 = "propagationpolicies"
	ResourceNamespaceScopedPropagationPolicy        = true
	ResourceKindClusterPropagationPolicy            = "ClusterPropagationPolicy"
	ResourceSingularClusterPropagationPolicy        = "clusterpropagationpolicy"
	ResourcePluralClusterPropagationPolicy          = "clusterpropagationpolicies"
	ResourceNamespaceScopedClusterPropagationPolicy = false

	ResourceKindOverridePolicy                   = "OverridePolicy"
	ResourceSingularOverridePolicy               = "overridepolicy"
	ResourcePluralOverridePolicy                 = "overridepolicies"
	ResourceNamespaceScopedOverridePolicy        = true
	ResourceKindClusterOverridePolicy            = "ClusterOverridePolicy"
	ResourceSingularClusterOverridePolicy        = "clusteroverridepolicy"
	ResourcePluralClusterOverridePolicy          = "clusteroverridepolicies"
	ResourceNamespaceScopedClusterOverridePolicy = false

	ResourceKindClusterTaintPolicy            = "ClusterTaintPolicy"
	ResourceSingularClusterTaintPolicy        = "clustertaintpolicy"
	ResourcePluralClusterTaintPolicy          = "clustertaintpolicies"
	ResourceNamespaceScopedClusterTaintPolicy = false

	ResourceKindFederatedResourceQuota            = "FederatedResourceQuota"
	ResourceSingularFederatedResourceQuota        = "federatedresourcequota"
	ResourcePluralFederatedResourceQuota          = "federatedresourcequotas"
	ResourceNamespaceScopedFederatedResourceQuota = true
)

// Label and annotation keys that tie objects to the policy that claimed them.
const (
	// PropagationPolicyPermanentIDLabel carries a PropagationPolicy's stable
	// ID, which survives backup and restore unlike its UID.
	PropagationPolicyPermanentIDLabel = "propagationpolicy.karmada.io/permanent-id"
	// ClusterPropagationPolicyPermanentIDLabel is the same for a
	// ClusterPropagationPolicy.
	ClusterPropagationPolicyPermanentIDLabel = "clusterpropagationpolicy.karmada.io/permanent-id"
	// NamespaceSkipAutoPropagationLabel set to "true" on a Namespace stops it
	// from being copied to member clusters automatically.
	NamespaceSkipAutoPropagationLabel = "namespace.karmada.io/skip-auto-propagation"

	// PropagationPolicyNamespaceAnnotation names the namespace of the claiming PropagationPolicy.
	PropagationPolicyNamespaceAnnotation = "propagationpolicy.karmada.io/namespace"
	// PropagationPolicyNameAnnotation names the claiming PropagationPolicy.
	PropagationPolicyNameAnnotation = "propagationpolicy.karmada.io/name"
	// ClusterPropagationPolicyAnnotation names the claiming ClusterPropagationPolicy.
	ClusterPropagationPolicyAnnotation = "clusterpropagationpolicy.karmada.io/name"
)

// Finalizers the API server puts on every new policy, so that the resources
// a policy claimed are released even when it is deleted while the
// controllers are down.
const (
	// PropagationPolicyControllerFinalizer is put on every new PropagationPolicy.
	PropagationPolicyControllerFinalizer = "karmada.io/propagation-policy-controller"
	// ClusterPropagationPolicyControllerFinalizer is put on every new
	// ClusterPropagationPolicy.
	ClusterPropagationPolicyControllerFinalizer = "karmada.io/cluster-propagation-policy-controller"
)

// SpreadFieldValue is a cluster field clusters can be grouped by.
type SpreadFieldValue string

// Fields accepted in SpreadConstraint.SpreadByField.
const (
	SpreadByFieldCluster  SpreadFieldValue = "cluster"
	SpreadByFieldRegion   SpreadFieldValue = "region"
	SpreadByFieldZone     SpreadFieldValue = "zone"
	SpreadByFieldProvider SpreadFieldValue = "provider"
)

// ReplicaSchedulingType says whether replicas are copied or split.
type ReplicaSchedulingType string

const (
	// ReplicaSchedulingTypeDuplicated gives every chosen cluster all replicas.
	ReplicaSchedulingTypeDuplicated ReplicaSchedulingType = "Duplicated"
	// ReplicaSchedulingTypeDivided splits the replicas between the clusters.
	ReplicaSchedulingTypeDivided ReplicaSchedulingType = "Divided"
)

// ReplicaDivisionPreference says how divided replicas are split.
type ReplicaDivisionPreference string

const (
	// ReplicaDivisionPreferenceAggregated packs replicas into as few clusters
	// as their free capacity allows.
	ReplicaDivisionPreferenceAggregated ReplicaDivisionPreference = "Aggregated"
	// ReplicaDivisionPreferenceWeighted splits replicas by weight.
	ReplicaDivisionPreferenceWeighted ReplicaDivisionPreference = "Weighted"
)

// DynamicWeightFactor is what computed cluster weights are based on.
type DynamicWeightFactor string

const (
	// DynamicWeightByAvailableReplicas weighs each cluster by how many more
	// replicas it can run.
	DynamicWeightByAvailableReplicas DynamicWeightFactor = "AvailableReplicas"
)

// PreemptionBehavior says whether a policy may take resources from a
// lower-priority one.
type PreemptionBehavior string

const (
	// PreemptAlways lets the policy take over resources by priority. A
	// ClusterPropagationPolicy can only take from other cluster-scoped ones.
	PreemptAlways PreemptionBehavior = "Always"
	// PreemptNever never takes over claimed resources.
	PreemptNever PreemptionBehavior = "Never"
)

// ConflictResolution says what to do when the resource already exists in a
// member cluster.
type ConflictResolution string

const (
	// ConflictOverwrite takes over the existing resource by overwriting it.
	ConflictOverwrite ConflictResolution = "Overwrite"
	// ConflictAbort leaves the existing resource alone and stops propagating.
	ConflictAbort ConflictResolution = "Abort"
)

// ActivationPreference says when policy edits reach the resources.
type ActivationPreference string

const (
	// LazyActivation applies a policy edit to a resource only when the
	// resource template itself next changes.
	LazyActivation ActivationPreference = "Lazy"
)

// PriorityClassSource says where a workload's PriorityClass is looked up.
type PriorityClassSource string

const (
	// FederatedPriorityClass is reserved for a future Karmada priority class.
	FederatedPriorityClass PriorityClassSource = "FederatedPriorityClass"
	// KubePriorityClass uses a Kubernetes scheduling.k8s.io/v1 PriorityClass.
	KubePriorityClass PriorityClassSource = "KubePriorityClass"
	// PodPriorityClass is reserved for the pod template's priorityClassName.
	PodPriorityClass PriorityClassSource = "PodPriorityClass"
)

// PurgeMode says how the copy left on a cluster is removed after failover.
type PurgeMode string

const (
	// PurgeModeDirectly deletes the old copy before the new one is created.
	PurgeModeDirectly PurgeMode = "Directly"
	// PurgeModeGracefully deletes the old copy once the new one is healthy or
	// the grace period ends.
	PurgeModeGracefully PurgeMode = "Gracefully"
	// Never keeps the old copy; the user cleans up.
	Never PurgeMode = "Never"
)

// OverriderOperator is the kind of change an overrider makes.
type OverriderOperator string

// Operators accepted by the overriders (command and args take add and remove only).
const (
	OverriderOpAdd     OverriderOperator = "add"
	OverriderOpRemove  OverriderOperator = "remove"
	OverriderOpReplace OverriderOperator = "replace"
)

// ImageComponent is a part of an image reference "[registry/]repository[:tag]".
type ImageComponent string

const (
	// Registry is the registry host part, e.g. "registry.k8s.io".
	Registry ImageComponent = "Registry"
	// Repository is the image path, e.g. "fictional/nginx".
	Repository ImageComponent = "Repository"
	// Tag is the tag or digest, e.g. "v1.19.1".
	Tag ImageComponent = "Tag"
)
