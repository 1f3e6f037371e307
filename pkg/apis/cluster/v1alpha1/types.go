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
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Names of the Cluster kind and its resource.
const (
	ResourceKindCluster            = "Cluster"
	ResourceSingularCluster        = "cluster"
	ResourcePluralCluster          = "clusters"
	ResourceNamespaceScopedCluster = false
)

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Cluster is a member cluster registered with the control plane.
type Cluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec says how to reach and describe the member cluster.
	// +required
	Spec ClusterSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`

	// Status is the member cluster's last reported state.
	// +optional
	Status ClusterStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ClusterList is a page of Cluster objects.
type ClusterList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the clusters on this page.
	// +required
	Items []Cluster `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// ClusterSpec is the desired description of a member cluster.
type ClusterSpec struct {
	// ID uniquely names the cluster across the federation; by default the UID of the member's
	// kube-system namespace. Distinct from metadata.uid; avoid changing it.
	// +optional
	ID string `json:"id,omitempty" protobuf:"bytes,1,opt,name=id"`

	// SyncMode is Push (the control plane writes to the member) or Pull (an agent in the member reads).
	// +required
	SyncMode ClusterSyncMode `json:"syncMode" protobuf:"bytes,2,opt,name=syncMode,casttype=ClusterSyncMode"`

	// APIEndpoint is the member's API server address: host, host:port, IP or IP:port, optionally as a URL.
	// +optional
	APIEndpoint string `json:"apiEndpoint,omitempty" protobuf:"bytes,3,opt,name=apiEndpoint"`

	// SecretRef names the secret holding the credentials (keys token and caBundle).
	// +optional
	SecretRef *LocalSecretReference `json:"secretRef,omitempty" protobuf:"bytes,4,opt,name=secretRef"`

	// ImpersonatorSecretRef names the secret holding the impersonator's token (key token).
	// +optional
	ImpersonatorSecretRef *LocalSecretReference `json:"impersonatorSecretRef,omitempty" protobuf:"bytes,5,opt,name=impersonatorSecretRef"`

	// InsecureSkipTLSVerification turns off checking of the member's serving certificate.
	// +optional
	InsecureSkipTLSVerification bool `json:"insecureSkipTLSVerification,omitempty" protobuf:"varint,6,opt,name=insecureSkipTLSVerification"`

	// ProxyURL, when set, routes traffic to the member through this proxy.
	// +optional
	ProxyURL string `json:"proxyURL,omitempty" protobuf:"bytes,7,opt,name=proxyURL"`

	// ProxyHeader holds extra HTTP headers for the proxy; several values share a key, comma-separated.
	// +optional
	ProxyHeader map[string]string `json:"proxyHeader,omitempty" protobuf:"bytes,8,rep,name=proxyHeader"`

	// Provider is the cloud provider hosting the cluster.
	// +optional
	Provider string `json:"provider,omitempty" protobuf:"bytes,9,opt,name=provider"`

	// Region the cluster runs in.
	// +optional
	Region string `json:"region,omitempty" protobuf:"bytes,10,opt,name=region"`

	// Zone the cluster runs in.
	// Deprecated: never used; kept so old objects still decode. Use Zones.
	// +optional
	Zone string `json:"zone,omitempty" protobuf:"bytes,11,opt,name=zone"`

	// Zones are the failure zones the cluster spans.
	// +optional
	Zones []string `json:"zones,omitempty" protobuf:"bytes,12,rep,name=zones"`

	// Taints repel workloads that do not tolerate them.
	// +optional
	Taints []corev1.Taint `json:"taints,omitempty" protobuf:"bytes,13,rep,name=taints"`

	// ResourceModels defines node size grades used to summarise allocatable capacity.
	// Range names are cpu, memory, storage or ephemeral-storage; when empty a default model applies.
	// +optional
	ResourceModels []ResourceModel `json:"resourceModels,omitempty" protobuf:"bytes,14,rep,name=resourceModels"`
}

// ResourceModel is one grade of node size.
type ResourceModel struct {
	// Grade is the index of this grade.
	// +required
	Grade uint `json:"grade" protobuf:"varint,1,opt,name=grade,casttype=uint"`

	// Ranges bound each resource for nodes of this grade.
	// +required
	Ranges ResourceModelRanges `json:"ranges" protobuf:"bytes,2,opt,name=ranges"`
}

// ResourceModelRange is the half-open interval [Min, Max) of one resource within a grade.
// In the highest grade Max is treated as unbounded.
type ResourceModelRange struct {
	// Name of the resource, such as cpu or memory.
	// +required
	Name corev1.ResourceName `json:"name" protobuf:"bytes,1,opt,name=name,casttype=k8s.io/api/core/v1.ResourceName"`

	// Min is the inclusive lower bound.
	// +required
	Min resource.Quantity `json:"min" protobuf:"bytes,2,opt,name=min"`

	// Max is the exclusive upper bound; must exceed Min.
	// +required
	Max resource.Quantity `json:"max" protobuf:"bytes,3,opt,name=max"`
}

// ClusterSyncMode is how resources reach a member cluster.
type ClusterSyncMode string

// Values of ClusterSyncMode.
const (
	// Push: controllers on the control plane write resources into the member.
	Push ClusterSyncMode = "Push"
	// Pull: an agent in the member fetches resources from the control plane and applies them.
	Pull ClusterSyncMode = "Pull"
)

// LocalSecretReference points at a secret by namespace and name.
type LocalSecretReference struct {
	// Namespace of the secret.
	// +required
	Namespace string `json:"namespace" protobuf:"bytes,1,opt,name=namespace"`

	// Name of the secret.
	// +required
	Name string `json:"name" protobuf:"bytes,2,opt,name=name"`
}

// ClusterStatus is the observed state of a member cluster, refreshed periodically.
type ClusterStatus struct {
	// KubernetesVersion of the member cluster.
	// +optional
	KubernetesVersion string `json:"kubernetesVersion,omitempty" protobuf:"bytes,1,opt,name=kubernetesVersion"`

	// APIEnablements lists the APIs the member serves.
	// +optional
	APIEnablements []APIEnablement `json:"apiEnablements,omitempty" protobuf:"bytes,2,rep,name=apiEnablements"`

	// Conditions include Ready and CompleteAPIEnablements.
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty" protobuf:"bytes,3,rep,name=conditions"`

	// NodeSummary counts the member's nodes.
	// +optional
	NodeSummary *NodeSummary `json:"nodeSummary,omitempty" protobuf:"bytes,4,opt,name=nodeSummary"`

	// ResourceSummary totals the member's compute.
	// +optional
	ResourceSummary *ResourceSummary `json:"resourceSummary,omitempty" protobuf:"bytes,5,opt,name=resourceSummary"`

	// RemedyActions lists remedies the control plane should apply to this cluster.
	// +optional
	RemedyActions []string `json:"remedyActions,omitempty" protobuf:"bytes,6,rep,name=remedyActions"`
}

// APIEnablement lists the resources served under one group/version.
type APIEnablement struct {
	// GroupVersion such as apps/v1.
	// +required
	GroupVersion string `json:"groupVersion" protobuf:"bytes,1,opt,name=groupVersion"`

	// Resources served under GroupVersion.
	// +optional
	Resources []APIResource `json:"resources,omitempty" protobuf:"bytes,2,rep,name=resources"`
}

// APIResource pairs a resource's plural name with its kind.
type APIResource struct {
	// Name is the plural resource name, e.g. deployments.
	// +required
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`

	// Kind is the object kind, e.g. Deployment.
	// +required
	Kind string `json:"kind" protobuf:"bytes,2,opt,name=kind"`
}

// NodeSummary counts nodes in a member cluster.
type NodeSummary struct {
	// TotalNum is the number of nodes.
	// +optional
	TotalNum int32 `json:"totalNum,omitempty" protobuf:"varint,1,opt,name=totalNum"`

	// ReadyNum is the number of Ready nodes.
	// +optional
	ReadyNum int32 `json:"readyNum,omitempty" protobuf:"varint,2,opt,name=readyNum"`
}

// ResourceSummary totals compute across a member cluster's nodes.
type ResourceSummary struct {
	// Allocatable is the sum of node allocatable resources.
	// +optional
	Allocatable corev1.ResourceList `json:"allocatable,omitempty" protobuf:"bytes,1,rep,name=allocatable,casttype=k8s.io/api/core/v1.ResourceList,castkey=k8s.io/api/core/v1.ResourceName"`

	// Allocating is the sum of requests of pods still waiting to be scheduled.
	// +optional
	Allocating corev1.ResourceList `json:"allocating,omitempty" protobuf:"bytes,2,rep,name=allocating,casttype=k8s.io/api/core/v1.ResourceList,castkey=k8s.io/api/core/v1.ResourceName"`

	// Allocated is the sum of requests of pods already bound to nodes.
	// +optional
	Allocated corev1.ResourceList `json:"allocated,omitempty" protobuf:"bytes,3,rep,name=allocated,casttype=k8s.io/api/core/v1.ResourceList,castkey=k8s.io/api/core/v1.ResourceName"`

	// AllocatableModelings counts nodes per resource model grade.
	// +optional
	AllocatableModelings []AllocatableModeling `json:"allocatableModelings,omitempty" protobuf:"bytes,4,rep,name=allocatableModelings"`
}

// AllocatableModeling is how many nodes fall into one resource model grade.
type AllocatableModeling struct {
	// Grade is the ResourceModel index.
	// +required
	Grade uint `json:"grade" protobuf:"varint,1,opt,name=grade,casttype=uint"`

	// Count is the number of nodes in that grade.
	// +required
	Count int `json:"count" protobuf:"varint,2,opt,name=count,casttype=int"`
}

// ResourceModelRanges is a list of ranges in which an empty list and a
// missing one stay apart, in protobuf as in JSON.
// +protobuf.nullable=true
// +protobuf.options.(gogoproto.goproto_stringer)=false
type ResourceModelRanges []ResourceModelRange
