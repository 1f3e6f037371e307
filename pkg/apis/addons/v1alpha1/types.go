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
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the chart, its release and its values.
	// +required
	Spec AddonSpec `json:"spec"`

	// Status is where the add-on stands in each cluster it is placed on.
	// +optional
	Status AddonStatus `json:"status,omitempty"`
}

// AddonSpec is what to install and how.
type AddonSpec struct {
	// Chart is the chart and its exact version.
	// +required
	Chart ChartSource `json:"chart"`

	// Release names the release and the namespace it is installed into.
	// +optional
	Release Release `json:"release,omitempty"`

	// Values are the chart's values for every cluster, over the chart's
	// own defaults. String values may read the cluster:
	// ${cluster.name}, ${cluster.region}, ${cluster.provider} and
	// ${cluster.labels['KEY']}.
	// +optional
	Values *apiextensionsv1.JSON `json:"values,omitempty"`

	// ValuesFrom are values kept in ConfigMaps or Secrets on mco, applied
	// over Values in order.
	// +optional
	ValuesFrom []ValuesReference `json:"valuesFrom,omitempty"`

	// Overrides are values for some clusters, applied in order over
	// ValuesFrom: every entry that matches a cluster applies there, a
	// later one winning over an earlier one.
	// +optional
	Overrides []ValuesOverride `json:"overrides,omitempty"`

	// DependsOn are add-ons that must be Healthy in a cluster before
	// anything of this one is applied there.
	// +optional
	DependsOn []AddonReference `json:"dependsOn,omitempty"`

	// ConflictsWith are add-ons this one never runs beside: where one of
	// them is installed, this one is Blocked.
	// +optional
	ConflictsWith []AddonReference `json:"conflictsWith,omitempty"`

	// KubeVersion is a semantic version range the member's Kubernetes
	// version must satisfy, as well as the chart's own kubeVersion, such
	// as ">=1.33.0-0".
	// +optional
	KubeVersion string `json:"kubeVersion,omitempty"`
}

// ChartSource says where a chart comes from.
type ChartSource struct {
	// Repository is a Helm repository (http:// or https://, serving
	// index.yaml) or an OCI registry path (oci://).
	// +required
	Repository string `json:"repository"`

	// Name of the chart in the repository.
	// +required
	Name string `json:"name"`

	// Version is the chart's exact version: what runs is always known.
	// +required
	Version string `json:"version"`

	// Digest, when set, is the sha256 the chart archive must have
	// ("sha256:" and 64 hexadecimal digits).
	// +optional
	Digest string `json:"digest,omitempty"`

	// SecretRef names a Secret on mco with the repository's credentials:
	// username and password, caFile, certFile and keyFile.
	// +optional
	SecretRef *SecretReference `json:"secretRef,omitempty"`

	// PlainHTTP reaches an OCI registry without TLS.
	// +optional
	PlainHTTP bool `json:"plainHTTP,omitempty"`
}

// SecretReference names a Secret on mco.
type SecretReference struct {
	// +required
	Namespace string `json:"namespace"`
	// +required
	Name string `json:"name"`
}

// Release is the Helm release an add-on installs in each cluster.
type Release struct {
	// Name of the release; the Addon's name when empty.
	// +optional
	Name string `json:"name,omitempty"`

	// Namespace the chart is installed into; "default" when empty.
	// +optional
	Namespace string `json:"namespace,omitempty"`

	// CreateNamespace creates Namespace in each cluster (never on mco).
	// +optional
	CreateNamespace bool `json:"createNamespace,omitempty"`
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
	Kind string `json:"kind"`

	// +required
	Namespace string `json:"namespace"`

	// +required
	Name string `json:"name"`

	// Key holding the values; values.yaml when empty.
	// +optional
	Key string `json:"key,omitempty"`

	// Optional lets the add-on install without the object or the key;
	// otherwise their absence stops it where nothing runs yet.
	// +optional
	Optional bool `json:"optional,omitempty"`
}

// ValuesOverride gives values to the clusters it matches.
type ValuesOverride struct {
	// ClusterSelector matches clusters by their labels.
	// +optional
	ClusterSelector *metav1.LabelSelector `json:"clusterSelector,omitempty"`

	// ClusterNames matches clusters by name. With ClusterSelector, a
	// cluster must match both.
	// +optional
	ClusterNames []string `json:"clusterNames,omitempty"`

	// Values for the matched clusters; placeholders as in spec.values.
	// +required
	Values *apiextensionsv1.JSON `json:"values"`
}

// AddonReference names another Addon.
type AddonReference struct {
	// +required
	Name string `json:"name"`
}

// AddonStatus is where an add-on stands.
type AddonStatus struct {
	// ObservedGeneration is the generation the status describes.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// Conditions: Ready (every placed cluster Healthy), Progressing and
	// Failed.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// Clusters holds one entry per cluster the add-on is placed on.
	// +optional
	// +listType=map
	// +listMapKey=name
	Clusters []AddonClusterStatus `json:"clusters,omitempty"`
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
	Name string `json:"name"`

	// Phase of the add-on there.
	// +optional
	Phase AddonPhase `json:"phase,omitempty"`

	// ChartVersion running there.
	// +optional
	ChartVersion string `json:"chartVersion,omitempty"`

	// Revision of the Addon (its staged rollout's, when one governs it)
	// running there.
	// +optional
	Revision int64 `json:"revision,omitempty"`

	// ValuesHash identifies the merged values the cluster got.
	// +optional
	ValuesHash string `json:"valuesHash,omitempty"`

	// LastSyncTime is when the cluster's objects were last written.
	// +optional
	LastSyncTime *metav1.Time `json:"lastSyncTime,omitempty"`

	// Message says what to do about the phase: the add-on waited for,
	// the conflicting add-on, the version and ranges, or the error.
	// +optional
	Message string `json:"message,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// AddonList is a list of Addons.
type AddonList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Addon `json:"items"`
}
