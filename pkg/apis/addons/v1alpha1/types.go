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
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Addon keeps a Helm chart installed, at one version, on every cluster a
// ClusterPropagationPolicy places it on: rendered for each cluster with
// the values that apply there, once the add-ons it depends on are healthy
// there, and never where an add-on it conflicts with runs.
type Addon struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is the chart, its release and its values.
	// +required
	Spec AddonSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`

	// Status is where the add-on stands in each cluster it is placed on.
	// +optional
	Status AddonStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// AddonSpec is what to install and how.
type AddonSpec struct {
	// Chart is the chart and its exact version.
	// +required
	Chart ChartSource `json:"chart" protobuf:"bytes,1,opt,name=chart"`

	// Release names the release and the namespace it is installed into.
	// +optional
	Release Release `json:"release,omitempty" protobuf:"bytes,2,opt,name=release"`

	// Values are the chart's values for every cluster, over the chart's
	// own defaults. String values may read the cluster:
	// ${cluster.name}, ${cluster.region}, ${cluster.provider} and
	// ${cluster.labels['KEY']}.
	// +optional
	Values *apiextensionsv1.JSON `json:"values,omitempty" protobuf:"bytes,3,opt,name=values"`

	// ValuesFrom are values kept in ConfigMaps or Secrets on mco, applied
	// over Values in order.
	// +optional
	ValuesFrom []ValuesReference `json:"valuesFrom,omitempty" protobuf:"bytes,4,rep,name=valuesFrom"`

	// Overrides are values for some clusters, applied in order over
	// ValuesFrom: every entry that matches a cluster applies there, a
	// later one winning over an earlier one.
	// +optional
	Overrides []ValuesOverride `json:"overrides,omitempty" protobuf:"bytes,5,rep,name=overrides"`

	// DependsOn are add-ons that must be Healthy in a cluster before
	// anything of this one is applied there.
	// +optional
	DependsOn []AddonReference `json:"dependsOn,omitempty" protobuf:"bytes,6,rep,name=dependsOn"`

	// ConflictsWith are add-ons this one never runs beside: where one of
	// them is installed, this one is Blocked.
	// +optional
	ConflictsWith []AddonReference `json:"conflictsWith,omitempty" protobuf:"bytes,7,rep,name=conflictsWith"`

	// KubeVersion is a semantic version range the member's Kubernetes
	// version must satisfy, as well as the chart's own kubeVersion, such
	// as ">=1.33.0-0".
	// +optional
	KubeVersion string `json:"kubeVersion,omitempty" protobuf:"bytes,8,opt,name=kubeVersion"`
}

// ChartSource says where a chart comes from.
type ChartSource struct {
	// Repository is a Helm repository (http:// or https://, serving
	// index.yaml) or an OCI registry path (oci://).
	// +required
	Repository string `json:"repository" protobuf:"bytes,1,opt,name=repository"`

	// Name of the chart in the repository.
	// +required
	Name string `json:"name" protobuf:"bytes,2,opt,name=name"`

	// Version is the chart's exact version: what runs is always known.
	// +required
	Version string `json:"version" protobuf:"bytes,3,opt,name=version"`

	// Digest, when set, is the sha256 the chart archive must have
	// ("sha256:" and 64 hexadecimal digits).
	// +optional
	Digest string `json:"digest,omitempty" protobuf:"bytes,4,opt,name=digest"`

	// SecretRef names a Secret on mco with the repository's credentials:
	// username and password, caFile, certFile and keyFile.
	// +optional
	SecretRef *SecretReference `json:"secretRef,omitempty" protobuf:"bytes,5,opt,name=secretRef"`

	// PlainHTTP reaches an OCI registry without TLS.
	// +optional
	PlainHTTP bool `json:"plainHTTP,omitempty" protobuf:"varint,6,opt,name=plainHTTP"`
}

// SecretReference names a Secret on mco.
type SecretReference struct {
	// +required
	Namespace string `json:"namespace" protobuf:"bytes,1,opt,name=namespace"`
	// +required
	Name string `json:"name" protobuf:"bytes,2,opt,name=name"`
}

// Release is the Helm release an add-on installs in each cluster.
type Release struct {
	// Name of the release; the Addon's name when empty.
	// +optional
	Name string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`

	// Namespace the chart is installed into; "default" when empty.
	// +optional
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,2,opt,name=namespace"`

	// CreateNamespace creates Namespace in each cluster (never on mco).
	// +optional
	CreateNamespace bool `json:"createNamespace,omitempty" protobuf:"varint,3,opt,name=createNamespace"`
}

// Kinds a ValuesReference may name.
const (
	ValuesKindConfigMap = "ConfigMap"
	ValuesKindSecret    = "Secret"
)

// DefaultValuesKey is the key a ValuesReference reads when it names none.
const DefaultValuesKey = "values.yaml"

// ValuesReference reads values, as YAML, from a key of a ConfigMap or a
// Secret on mco.
type ValuesReference struct {
	// Kind is ConfigMap or Secret.
	// +required
	Kind string `json:"kind" protobuf:"bytes,1,opt,name=kind"`

	// +required
	Namespace string `json:"namespace" protobuf:"bytes,2,opt,name=namespace"`

	// +required
	Name string `json:"name" protobuf:"bytes,3,opt,name=name"`

	// Key holding the values; values.yaml when empty.
	// +optional
	Key string `json:"key,omitempty" protobuf:"bytes,4,opt,name=key"`

	// Optional lets the add-on install without the object or the key;
	// otherwise their absence stops it where nothing runs yet.
	// +optional
	Optional bool `json:"optional,omitempty" protobuf:"varint,5,opt,name=optional"`
}

// ValuesOverride gives values to the clusters it matches.
type ValuesOverride struct {
	// ClusterSelector matches clusters by their labels.
	// +optional
	ClusterSelector *metav1.LabelSelector `json:"clusterSelector,omitempty" protobuf:"bytes,1,opt,name=clusterSelector"`

	// ClusterNames matches clusters by name. With ClusterSelector, a
	// cluster must match both.
	// +optional
	ClusterNames []string `json:"clusterNames,omitempty" protobuf:"bytes,2,rep,name=clusterNames"`

	// Values for the matched clusters; placeholders as in spec.values.
	// +required
	Values *apiextensionsv1.JSON `json:"values" protobuf:"bytes,3,opt,name=values"`
}

// AddonReference names another Addon.
type AddonReference struct {
	// +required
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
}

// AddonStatus is where an add-on stands.
type AddonStatus struct {
	// ObservedGeneration is the generation the status describes.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,1,opt,name=observedGeneration"`

	// Conditions: Ready (every placed cluster Healthy), Progressing and
	// Failed.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty" protobuf:"bytes,2,rep,name=conditions"`

	// Clusters holds one entry per cluster the add-on is placed on.
	// +optional
	// +listType=map
	// +listMapKey=name
	Clusters []AddonClusterStatus `json:"clusters,omitempty" protobuf:"bytes,3,rep,name=clusters"`
}

// Condition types of an Addon.
const (
	AddonReady       = "Ready"
	AddonProgressing = "Progressing"
	AddonFailed      = "Failed"
)

// AddonPhase is where an add-on stands in one cluster.
type AddonPhase string

// Phases of an add-on in a cluster.
const (
	// PhaseWaitingForDependency: an add-on it depends on is not Healthy
	// there yet; nothing of it is applied. Not an error.
	PhaseWaitingForDependency AddonPhase = "WaitingForDependency"
	// PhaseBlocked: an add-on it conflicts with runs there, or the
	// cluster's Kubernetes version is out of range.
	PhaseBlocked AddonPhase = "Blocked"
	// PhaseInstalling: applied, not healthy yet.
	PhaseInstalling AddonPhase = "Installing"
	// PhaseHealthy: every object it installed is healthy.
	PhaseHealthy AddonPhase = "Healthy"
	// PhaseDegraded: installed, and some object is no longer healthy.
	PhaseDegraded AddonPhase = "Degraded"
	// PhaseFailed: fetching, rendering or applying failed.
	PhaseFailed AddonPhase = "Failed"
	// PhaseRemoving: being uninstalled from the cluster.
	PhaseRemoving AddonPhase = "Removing"
)

// AddonClusterStatus is an add-on in one cluster.
type AddonClusterStatus struct {
	// Name of the cluster.
	// +required
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`

	// Phase of the add-on there.
	// +optional
	Phase AddonPhase `json:"phase,omitempty" protobuf:"bytes,2,opt,name=phase,casttype=AddonPhase"`

	// ChartVersion running there.
	// +optional
	ChartVersion string `json:"chartVersion,omitempty" protobuf:"bytes,3,opt,name=chartVersion"`

	// Revision of the Addon (its staged rollout's, when one governs it)
	// running there.
	// +optional
	Revision int64 `json:"revision,omitempty" protobuf:"varint,4,opt,name=revision"`

	// ValuesHash identifies the merged values the cluster got.
	// +optional
	ValuesHash string `json:"valuesHash,omitempty" protobuf:"bytes,5,opt,name=valuesHash"`

	// LastSyncTime is when the cluster's objects were last written.
	// +optional
	LastSyncTime *metav1.Time `json:"lastSyncTime,omitempty" protobuf:"bytes,6,opt,name=lastSyncTime"`

	// Message says what to do about the phase: the add-on waited for,
	// the conflicting add-on, the version and ranges, or the error.
	// +optional
	Message string `json:"message,omitempty" protobuf:"bytes,7,opt,name=message"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// AddonList is a list of Addons.
type AddonList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []Addon `json:"items" protobuf:"bytes,2,rep,name=items"`
}
