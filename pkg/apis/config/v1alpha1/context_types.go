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
	"k8s.io/apimachinery/pkg/types"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceInterpreterContext is what mco posts to an interpreter webhook
// (Request) and what the webhook answers (Response). It is never stored.
type ResourceInterpreterContext struct {
	metav1.TypeMeta `json:",inline"`

	// Request is the question.
	// +optional
	Request *ResourceInterpreterRequest `json:"request,omitempty" protobuf:"bytes,1,opt,name=request"`

	// Response is the answer.
	// +optional
	Response *ResourceInterpreterResponse `json:"response,omitempty" protobuf:"bytes,2,opt,name=response"`
}

// ResourceInterpreterRequest asks one operation about one object.
type ResourceInterpreterRequest struct {
	// UID identifies this call; the response carries it back.
	// +required
	UID types.UID `json:"uid" protobuf:"bytes,1,opt,name=uid,casttype=k8s.io/apimachinery/pkg/types.UID"`

	// Kind is the object's group, version and kind.
	// +required
	Kind metav1.GroupVersionKind `json:"kind" protobuf:"bytes,2,opt,name=kind"`

	// Name is the object's name.
	// +required
	Name string `json:"name" protobuf:"bytes,3,opt,name=name"`

	// Namespace is the object's namespace, if any.
	// +optional
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,4,opt,name=namespace"`

	// Operation is what is asked.
	// +required
	Operation InterpreterOperation `json:"operation" protobuf:"bytes,5,opt,name=operation,casttype=InterpreterOperation"`

	// Object is the template (or, for InterpretStatus and
	// InterpretHealth, the member's object).
	// +optional
	Object runtime.RawExtension `json:"object,omitempty" protobuf:"bytes,6,opt,name=object"`

	// ObservedObject is the member's object, for Retain only.
	// +optional
	ObservedObject *runtime.RawExtension `json:"observedObject,omitempty" protobuf:"bytes,7,opt,name=observedObject"`

	// DesiredReplicas is the member's share, for ReviseReplica only.
	// +optional
	DesiredReplicas *int32 `json:"replicas,omitempty" protobuf:"varint,8,opt,name=replicas"`

	// AggregatedStatus are the members' reports, for AggregateStatus
	// only.
	// +optional
	AggregatedStatus []workv1alpha2.AggregatedStatusItem `json:"aggregatedStatus,omitempty" protobuf:"bytes,9,rep,name=aggregatedStatus"`
}

// ResourceInterpreterResponse answers a ResourceInterpreterRequest.
type ResourceInterpreterResponse struct {
	// UID is the request's.
	// +required
	UID types.UID `json:"uid" protobuf:"bytes,1,opt,name=uid,casttype=k8s.io/apimachinery/pkg/types.UID"`

	// Successful tells whether the webhook could answer.
	// +required
	Successful bool `json:"successful" protobuf:"varint,2,opt,name=successful"`

	// Status says why the webhook could not answer.
	// +optional
	Status *RequestStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`

	// Patch is a JSON patch (RFC 6902) to the request's object, for
	// ReviseReplica, Retain and AggregateStatus.
	// +optional
	Patch []byte `json:"patch,omitempty" protobuf:"bytes,4,opt,name=patch"`

	// PatchType is the patch's type; only "JSONPatch".
	// +optional
	PatchType *PatchType `json:"patchType,omitempty" protobuf:"bytes,5,opt,name=patchType,casttype=PatchType"`

	// ReplicaRequirements are what one replica needs, for InterpretReplica.
	// +optional
	ReplicaRequirements *workv1alpha2.ReplicaRequirements `json:"replicaRequirements,omitempty" protobuf:"bytes,6,opt,name=replicaRequirements"`

	// Replicas is the object's replica count, for InterpretReplica.
	// +optional
	Replicas *int32 `json:"replicas,omitempty" protobuf:"varint,7,opt,name=replicas"`

	// Components are the object's components, for InterpretComponent.
	// +optional
	Components []workv1alpha2.Component `json:"components,omitempty" protobuf:"bytes,8,rep,name=components"`

	// Dependencies are what the object depends on, for
	// InterpretDependency.
	// +optional
	Dependencies []DependentObjectReference `json:"dependencies,omitempty" protobuf:"bytes,9,rep,name=dependencies"`

	// RawStatus is the status to report, for InterpretStatus.
	// +optional
	RawStatus *runtime.RawExtension `json:"rawStatus,omitempty" protobuf:"bytes,10,opt,name=rawStatus"`

	// Healthy is the object's health, for InterpretHealth.
	// +optional
	Healthy *bool `json:"healthy,omitempty" protobuf:"varint,11,opt,name=healthy"`
}

// RequestStatus says why a webhook could not answer.
type RequestStatus struct {
	// Message explains it.
	// +optional
	Message string `json:"message,omitempty" protobuf:"bytes,1,opt,name=message"`

	// Code is an HTTP status code.
	// +optional
	Code int32 `json:"code,omitempty" protobuf:"varint,2,opt,name=code"`
}

// PatchType is the type of a webhook's patch.
type PatchType string

// PatchTypeJSONPatch is RFC 6902's JSON patch, the only type accepted.
const PatchTypeJSONPatch PatchType = "JSONPatch"
