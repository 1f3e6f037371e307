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
)

// +genclient
// +genclient:noStatus
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// OverridePolicy changes resource templates of its own namespace on their way
// to particular member clusters.
type OverridePolicy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is what the user asks for.
	Spec OverrideSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// OverridePolicyList is a page of OverridePolicy objects.
type OverridePolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the policies of this page.
	Items []OverridePolicy `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// +genclient
// +genclient:nonNamespaced
// +genclient:noStatus
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ClusterOverridePolicy is the cluster-scoped form of OverridePolicy; it can
// match resources in any namespace and cluster-scoped resources.
type ClusterOverridePolicy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is what the user asks for.
	Spec OverrideSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ClusterOverridePolicyList is a page of ClusterOverridePolicy objects.
type ClusterOverridePolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the policies of this page.
	Items []ClusterOverridePolicy `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// OverrideSpec is the body shared by OverridePolicy and ClusterOverridePolicy.
type OverrideSpec struct {
	// ResourceSelectors picks the resources to change; nil matches all of them.
	// +optional
	ResourceSelectors []ResourceSelector `json:"resourceSelectors,omitempty" protobuf:"bytes,1,rep,name=resourceSelectors"`

	// OverrideRules are the changes, each for its own set of clusters.
	// +optional
	OverrideRules []RuleWithCluster `json:"overrideRules,omitempty" protobuf:"bytes,2,rep,name=overrideRules"`

	// TargetCluster is the cluster filter of the old single-rule form.
	// Deprecated: use OverrideRules.
	// +optional
	TargetCluster *ClusterAffinity `json:"targetCluster,omitempty" protobuf:"bytes,3,opt,name=targetCluster"`

	// Overriders are the changes of the old single-rule form.
	// Deprecated: use OverrideRules.
	// +optional
	Overriders Overriders `json:"overriders" protobuf:"bytes,4,opt,name=overriders"`
}

// RuleWithCluster applies a set of changes to the resources sent to some clusters.
type RuleWithCluster struct {
	// TargetCluster picks the clusters the rule is for; nil means all of them.
	// +optional
	TargetCluster *ClusterAffinity `json:"targetCluster,omitempty" protobuf:"bytes,1,opt,name=targetCluster"`

	// Overriders are the changes to make.
	// +required
	Overriders Overriders `json:"overriders" protobuf:"bytes,2,opt,name=overriders"`
}

// Overriders holds the changes of one rule, grouped by kind. They run in this
// order: image, command, args, labels, annotations, field, then plaintext.
type Overriders struct {
	// Plaintext changes any field by JSON-patch-like path and value.
	// +optional
	Plaintext []PlaintextOverrider `json:"plaintext,omitempty" protobuf:"bytes,1,rep,name=plaintext"`

	// ImageOverrider changes parts of container images.
	// +optional
	ImageOverrider []ImageOverrider `json:"imageOverrider,omitempty" protobuf:"bytes,2,rep,name=imageOverrider"`

	// CommandOverrider changes the command of a container.
	// +optional
	CommandOverrider []CommandArgsOverrider `json:"commandOverrider,omitempty" protobuf:"bytes,3,rep,name=commandOverrider"`

	// ArgsOverrider changes the args of a container.
	// +optional
	ArgsOverrider []CommandArgsOverrider `json:"argsOverrider,omitempty" protobuf:"bytes,4,rep,name=argsOverrider"`

	// LabelsOverrider changes the labels of the resource.
	// +optional
	LabelsOverrider []LabelAnnotationOverrider `json:"labelsOverrider,omitempty" protobuf:"bytes,5,rep,name=labelsOverrider"`

	// AnnotationsOverrider changes the annotations of the resource.
	// +optional
	AnnotationsOverrider []LabelAnnotationOverrider `json:"annotationsOverrider,omitempty" protobuf:"bytes,6,rep,name=annotationsOverrider"`

	// FieldOverrider edits a JSON or YAML document stored inside one string
	// field, such as a ConfigMap data entry.
	// +optional
	FieldOverrider []FieldOverrider `json:"fieldOverrider,omitempty" protobuf:"bytes,7,rep,name=fieldOverrider"`
}
