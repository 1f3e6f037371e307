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
// +genclient:nonNamespaced
// +genclient:noStatus
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceInterpreterCustomization teaches mco how to read one kind of
// resource template: each customization is a Lua script defining one
// function that mco calls instead of its own rule for that kind.
type ResourceInterpreterCustomization struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec names the kind and holds its scripts.
	// +required
	Spec ResourceInterpreterCustomizationSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
}

// ResourceInterpreterCustomizationSpec is the body of a
// ResourceInterpreterCustomization.
type ResourceInterpreterCustomizationSpec struct {
	// Target is the kind the scripts interpret.
	// +required
	Target CustomizationTarget `json:"target" protobuf:"bytes,1,opt,name=target"`

	// Customizations holds one script per operation; operations left out
	// keep mco's own rule (or another customization's for the same kind).
	// +required
	Customizations CustomizationRules `json:"customizations" protobuf:"bytes,2,opt,name=customizations"`
}

// CustomizationTarget names a kind by API version and kind.
type CustomizationTarget struct {
	// APIVersion is the kind's group and version, such as "apps/v1".
	// +required
	APIVersion string `json:"apiVersion" protobuf:"bytes,1,opt,name=apiVersion"`

	// Kind is the kind's name, such as "Deployment".
	// +required
	Kind string `json:"kind" protobuf:"bytes,2,opt,name=kind"`
}

// CustomizationRules holds a script per interpreter operation.
type CustomizationRules struct {
	// Retention keeps fields of a member's object that the member owns when
	// mco applies the template over it. The script defines
	// Retain(desiredObj, observedObj) and returns the object to apply.
	// +optional
	Retention *LocalValueRetention `json:"retention,omitempty" protobuf:"bytes,1,opt,name=retention"`

	// ReplicaResource reads the replicas a template asks for and what one
	// replica needs. The script defines GetReplicas(obj) and returns the
	// replica count and the requirements of one replica.
	// +optional
	ReplicaResource *ReplicaResourceRequirement `json:"replicaResource,omitempty" protobuf:"bytes,2,opt,name=replicaResource"`

	// ComponentResource reads the components of a workload made of several
	// pod templates, each with its replicas and requirements. The script
	// defines GetComponents(obj) and returns a list of components.
	// +optional
	ComponentResource *ComponentResourceRequirement `json:"componentResource,omitempty" protobuf:"bytes,3,opt,name=componentResource"`

	// ReplicaRevision sets a member's share of the replicas on the
	// template. The script defines ReviseReplica(obj, desiredReplica) and
	// returns the revised object.
	// +optional
	ReplicaRevision *ReplicaRevision `json:"replicaRevision,omitempty" protobuf:"bytes,4,opt,name=replicaRevision"`

	// StatusReflection picks what of a member object's status is reported.
	// The script defines ReflectStatus(observedObj) and returns the status.
	// +optional
	StatusReflection *StatusReflection `json:"statusReflection,omitempty" protobuf:"bytes,5,opt,name=statusReflection"`

	// StatusAggregation sums the members' reports onto the template. The
	// script defines AggregateStatus(desiredObj, statusItems) and returns
	// the template with its new status.
	// +optional
	StatusAggregation *StatusAggregation `json:"statusAggregation,omitempty" protobuf:"bytes,6,opt,name=statusAggregation"`

	// HealthInterpretation judges a member object's health. The script
	// defines InterpretHealth(observedObj) and returns true when healthy.
	// +optional
	HealthInterpretation *HealthInterpretation `json:"healthInterpretation,omitempty" protobuf:"bytes,7,opt,name=healthInterpretation"`

	// DependencyInterpretation lists what a template depends on, to be
	// propagated with it. The script defines GetDependencies(desiredObj)
	// and returns a list of object references.
	// +optional
	DependencyInterpretation *DependencyInterpretation `json:"dependencyInterpretation,omitempty" protobuf:"bytes,8,opt,name=dependencyInterpretation"`
}

// LocalValueRetention holds the script of the retention operation.
type LocalValueRetention struct {
	// LuaScript defines Retain(desiredObj, observedObj).
	// +required
	LuaScript string `json:"luaScript" protobuf:"bytes,1,opt,name=luaScript"`
}

// ReplicaResourceRequirement holds the script of the replica operation.
type ReplicaResourceRequirement struct {
	// LuaScript defines GetReplicas(obj).
	// +required
	LuaScript string `json:"luaScript" protobuf:"bytes,1,opt,name=luaScript"`
}

// ComponentResourceRequirement holds the script of the component
// operation.
type ComponentResourceRequirement struct {
	// LuaScript defines GetComponents(obj).
	// +required
	LuaScript string `json:"luaScript" protobuf:"bytes,1,opt,name=luaScript"`
}

// ReplicaRevision holds the script of the replica revision operation.
type ReplicaRevision struct {
	// LuaScript defines ReviseReplica(obj, desiredReplica).
	// +required
	LuaScript string `json:"luaScript" protobuf:"bytes,1,opt,name=luaScript"`
}

// StatusReflection holds the script of the status reflection operation.
type StatusReflection struct {
	// LuaScript defines ReflectStatus(observedObj).
	// +required
	LuaScript string `json:"luaScript" protobuf:"bytes,1,opt,name=luaScript"`
}

// StatusAggregation holds the script of the status aggregation operation.
type StatusAggregation struct {
	// LuaScript defines AggregateStatus(desiredObj, statusItems).
	// +required
	LuaScript string `json:"luaScript" protobuf:"bytes,1,opt,name=luaScript"`
}

// HealthInterpretation holds the script of the health operation.
type HealthInterpretation struct {
	// LuaScript defines InterpretHealth(observedObj).
	// +required
	LuaScript string `json:"luaScript" protobuf:"bytes,1,opt,name=luaScript"`
}

// DependencyInterpretation holds the script of the dependency operation.
type DependencyInterpretation struct {
	// LuaScript defines GetDependencies(desiredObj).
	// +required
	LuaScript string `json:"luaScript" protobuf:"bytes,1,opt,name=luaScript"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceInterpreterCustomizationList is a list of
// ResourceInterpreterCustomizations.
type ResourceInterpreterCustomizationList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Items []ResourceInterpreterCustomization `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// DependentObjectReference names an object a resource template depends
// on: by name, or by label selector within a namespace.
type DependentObjectReference struct {
	// APIVersion of the referent.
	// +required
	APIVersion string `json:"apiVersion" protobuf:"bytes,1,opt,name=apiVersion"`

	// Kind of the referent.
	// +required
	Kind string `json:"kind" protobuf:"bytes,2,opt,name=kind"`

	// Namespace of the referent; empty for a cluster-scoped one.
	// +optional
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,3,opt,name=namespace"`

	// Name of the referent. When set, LabelSelector is ignored.
	// +optional
	Name string `json:"name,omitempty" protobuf:"bytes,4,opt,name=name"`

	// LabelSelector picks referents by label when Name is empty.
	// +optional
	LabelSelector *metav1.LabelSelector `json:"labelSelector,omitempty" protobuf:"bytes,5,opt,name=labelSelector"`
}
