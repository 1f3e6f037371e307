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

// PlaintextOverrider changes one field of the resource, addressed by a
// JSON-pointer path.
type PlaintextOverrider struct {
	// Path is the JSON pointer of the field, e.g. "/spec/replicas".
	Path string `json:"path" protobuf:"bytes,1,opt,name=path"`

	// Operator is add, remove or replace.
	Operator OverriderOperator `json:"operator" protobuf:"bytes,2,opt,name=operator,casttype=OverriderOperator"`

	// Value is the new value, any JSON; leave it empty for remove.
	// +optional
	Value JSON `json:"value,omitempty" protobuf:"bytes,3,opt,name=value"`
}

// ImageOverrider changes one part of container images.
type ImageOverrider struct {
	// Predicate picks which image field to change. Nil means the container
	// images of Pods and of the usual workload kinds.
	// +optional
	Predicate *ImagePredicate `json:"predicate,omitempty" protobuf:"bytes,1,opt,name=predicate"`

	// Component is the part of "[registry/]repository[:tag]" to change:
	// Registry, Repository or Tag.
	// +required
	Component ImageComponent `json:"component" protobuf:"bytes,2,opt,name=component,casttype=ImageComponent"`

	// Operator is add, remove or replace.
	// +required
	Operator OverriderOperator `json:"operator" protobuf:"bytes,3,opt,name=operator,casttype=OverriderOperator"`

	// Value is the new part; needed for add and replace, ignored for remove.
	// +optional
	Value string `json:"value,omitempty" protobuf:"bytes,4,opt,name=value"`
}

// ImagePredicate points at the image field to change.
type ImagePredicate struct {
	// Path is the JSON pointer of the image field.
	// +required
	Path string `json:"path" protobuf:"bytes,1,opt,name=path"`
}

// CommandArgsOverrider adds or removes items of a container's command or args.
type CommandArgsOverrider struct {
	// ContainerName is the container to change.
	// +required
	ContainerName string `json:"containerName" protobuf:"bytes,1,opt,name=containerName"`

	// Operator is add (append Value) or remove (drop matching items).
	// +required
	Operator OverriderOperator `json:"operator" protobuf:"bytes,2,opt,name=operator,casttype=OverriderOperator"`

	// Value lists the items to append or drop; empty changes nothing.
	// +optional
	Value []string `json:"value,omitempty" protobuf:"bytes,3,rep,name=value"`
}

// LabelAnnotationOverrider adds, removes or replaces labels or annotations.
type LabelAnnotationOverrider struct {
	// Operator is add, remove or replace.
	// +required
	Operator OverriderOperator `json:"operator" protobuf:"bytes,1,opt,name=operator,casttype=OverriderOperator"`

	// Value holds the keys and values to add, remove or replace.
	// +required
	Value StringMap `json:"value" protobuf:"bytes,2,opt,name=value"`
}

// FieldOverrider edits a JSON or YAML document held in one string field of the
// resource. Use either JSON or YAML, not both.
type FieldOverrider struct {
	// FieldPath is the JSON pointer of the string field, e.g.
	// "/data/db-config.yaml".
	// +required
	FieldPath string `json:"fieldPath" protobuf:"bytes,1,opt,name=fieldPath"`

	// JSON are the edits when the field holds a JSON document.
	// +optional
	JSON []JSONPatchOperation `json:"json,omitempty" protobuf:"bytes,2,rep,name=json"`

	// YAML are the edits when the field holds a YAML document.
	// +optional
	YAML []YAMLPatchOperation `json:"yaml,omitempty" protobuf:"bytes,3,rep,name=yaml"`
}

// JSONPatchOperation is one edit inside a JSON document.
type JSONPatchOperation struct {
	// SubPath is the JSON pointer inside the document.
	// +required
	SubPath string `json:"subPath" protobuf:"bytes,1,opt,name=subPath"`

	// Operator is add, remove or replace.
	// +required
	Operator OverriderOperator `json:"operator" protobuf:"bytes,2,opt,name=operator,casttype=OverriderOperator"`

	// Value is the new value for add and replace; ignored for remove.
	// +optional
	Value JSON `json:"value,omitempty" protobuf:"bytes,3,opt,name=value"`
}

// YAMLPatchOperation is one edit inside a YAML document.
type YAMLPatchOperation struct {
	// SubPath is the JSON pointer inside the document.
	// +required
	SubPath string `json:"subPath" protobuf:"bytes,1,opt,name=subPath"`

	// Operator is add, remove or replace.
	// +required
	Operator OverriderOperator `json:"operator" protobuf:"bytes,2,opt,name=operator,casttype=OverriderOperator"`

	// Value is the new value for add and replace; ignored for remove.
	// +optional
	Value JSON `json:"value,omitempty" protobuf:"bytes,3,opt,name=value"`
}

// StringMap holds labels or annotations; an empty map and a missing one
// stay apart, in protobuf as in JSON.
// +protobuf.nullable=true
// +protobuf.options.(gogoproto.goproto_stringer)=false
type StringMap map[string]string
