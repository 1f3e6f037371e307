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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Names of the Work kind and its resource.
const (
	ResourceKindWork            = "Work"
	ResourceSingularWork        = "work"
	ResourcePluralWork          = "works"
	ResourceNamespaceScopedWork = true
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Work is the set of manifests bound for one member cluster. It lives in that cluster's
// execution namespace (karmada-es-<cluster>).
type Work struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec holds the manifests to apply.
	// +required
	Spec WorkSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`

	// Status reports how applying the manifests went.
	// +optional
	Status WorkStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// WorkList is a page of Work objects.
type WorkList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the Works on this page.
	// +required
	Items []Work `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// WorkSpec is the desired content of a Work.
type WorkSpec struct {
	// Workload holds the manifests.
	// +optional
	Workload WorkloadTemplate `json:"workload,omitempty" protobuf:"bytes,1,opt,name=workload"`

	// SuspendDispatching, when true, stops pushing the manifests to the member cluster;
	// status is still collected. nil means not suspended.
	// +optional
	SuspendDispatching *bool `json:"suspendDispatching,omitempty" protobuf:"varint,2,opt,name=suspendDispatching"`

	// PreserveResourcesOnDeletion leaves the applied resources in the member cluster when
	// the Work is deleted.
	// +optional
	PreserveResourcesOnDeletion *bool `json:"preserveResourcesOnDeletion,omitempty" protobuf:"varint,3,opt,name=preserveResourcesOnDeletion"`
}

// WorkloadTemplate wraps the list of manifests.
type WorkloadTemplate struct {
	// Manifests are the objects to create or update in the member cluster.
	// +optional
	Manifests []Manifest `json:"manifests,omitempty" protobuf:"bytes,1,rep,name=manifests"`
}

// Manifest is one whole Kubernetes object, kept as raw JSON.
type Manifest struct {
	runtime.RawExtension `json:",inline" protobuf:"bytes,1,opt,name=rawExtension"`
}

// WorkStatus is the observed state of a Work.
type WorkStatus struct {
	// Conditions include Applied, Progressing, Available, Degraded and Dispatching.
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty" protobuf:"bytes,1,rep,name=conditions"`

	// ManifestStatuses has the member-cluster status of each manifest.
	// +optional
	ManifestStatuses []ManifestStatus `json:"manifestStatuses,omitempty" protobuf:"bytes,2,rep,name=manifestStatuses"`
}

// ManifestStatus is the member-cluster state of one manifest.
type ManifestStatus struct {
	// Identifier says which manifest this is.
	// +required
	Identifier ResourceIdentifier `json:"identifier" protobuf:"bytes,1,opt,name=identifier"`

	// Status is the object's status as read from the member cluster, kept as raw JSON.
	// +optional
	Status *runtime.RawExtension `json:"status,omitempty" protobuf:"bytes,2,opt,name=status"`

	// Health is the object's health verdict: Healthy, Unhealthy or Unknown.
	// +optional
	Health ResourceHealth `json:"health,omitempty" protobuf:"bytes,3,opt,name=health,casttype=ResourceHealth"`
}

// ResourceIdentifier locates one manifest, both by its position and by its object coordinates.
type ResourceIdentifier struct {
	// Ordinal is the manifest's index in spec.workload.manifests, usable even when the
	// manifest cannot be parsed.
	// +required
	Ordinal int `json:"ordinal" protobuf:"varint,1,opt,name=ordinal,casttype=int"`

	// Group of the object; empty for the core group.
	// +optional
	Group string `json:"group,omitempty" protobuf:"bytes,2,opt,name=group"`

	// Version of the object's API.
	// +required
	Version string `json:"version" protobuf:"bytes,3,opt,name=version"`

	// Kind of the object.
	// +required
	Kind string `json:"kind" protobuf:"bytes,4,opt,name=kind"`

	// Resource is the plural resource name of the object.
	// +required
	Resource string `json:"resource" protobuf:"bytes,5,opt,name=resource"`

	// Namespace of the object; empty for cluster-scoped objects.
	// +optional
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,6,opt,name=namespace"`

	// Name of the object.
	// +required
	Name string `json:"name" protobuf:"bytes,7,opt,name=name"`
}

// Condition types set on Works.
const (
	// WorkApplied: the manifests were applied to the member cluster.
	WorkApplied string = "Applied"
	// WorkProgressing: applying the manifests is under way.
	WorkProgressing string = "Progressing"
	// WorkAvailable: every manifest exists in the member cluster.
	WorkAvailable string = "Available"
	// WorkDegraded: the member cluster has not matched the desired state for a while.
	WorkDegraded string = "Degraded"
	// WorkDispatching: whether the Work is being pushed to the member cluster (False while suspended).
	WorkDispatching string = "Dispatching"
)

// ResourceHealth is the health verdict for one applied manifest.
type ResourceHealth string

// Values of ResourceHealth.
const (
	// ResourceHealthy means the object meets its health rule.
	ResourceHealthy ResourceHealth = "Healthy"
	// ResourceUnhealthy means the object fails its health rule.
	ResourceUnhealthy ResourceHealth = "Unhealthy"
	// ResourceUnknown means no verdict could be reached.
	ResourceUnknown ResourceHealth = "Unknown"
)
