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
	Request *ResourceInterpreterRequest `json:"request,omitempty"`

	// Response is the answer.
	// +optional
	Response *ResourceInterpreterResponse `json:"response,omitempty"`
}

// ResourceInterpreterRequest asks one operation about one object.
type ResourceInterpreterRequest struct {
	// UID identifies this call; the response carries it back.
	// +required
	UID types.UID `json:"uid"`

	// Kind is the object's group, version and kind.
	// +required
	Kind metav1.GroupVersionKind `json:"kind"`

	// Name is the object's name.
	// +required
	Name string `json:"name"`

	// Namespace is the object's namespace, if any.
	// +optional
	Namespace string `json:"namespace,omitempty"`

	// Operation is what is asked.
	// +required
	Operation InterpreterOperation `json:"operation"`

	// Object is the template (or, for InterpretStatus and
	// InterpretHealth, the member's object).
	// +optional
	Object runtime.RawExtension `json:"object,omitempty"`

	// ObservedObject is the member's object, for Retain only.
	// +optional
	ObservedObject *runtime.RawExtension `json:"observedObject,omitempty"`

	// DesiredReplicas is the member's share, for ReviseReplica only.
	// +optional
	DesiredReplicas *int32 `json:"replicas,omitempty"`

	// AggregatedStatus are the members' reports, for AggregateStatus
	// only.
	// +optional
	AggregatedStatus []workv1alpha2.AggregatedStatusItem `json:"aggregatedStatus,omitempty"`
}

// ResourceInterpreterResponse answers a ResourceInterpreterRequest.
type ResourceInterpreterResponse struct {
	// UID is the request's.
	// +required
	UID types.UID `json:"uid"`

	// Successful tells whether the webhook could answer.
	// +required
	Successful bool `json:"successful"`

	// Status says why the webhook could not answer.
	// +optional
	Status *RequestStatus `json:"status,omitempty"`

	// Patch is a JSON patch (RFC 6902) to the request's object, for
	// ReviseReplica, Retain and AggregateStatus.
	// +optional
	Patch []byte `json:"patch,omitempty"`

	// PatchType is the patch's type; only "JSONPatch".
	// +optional
	PatchType *PatchType `json:"patchType,omitempty"`

	// ReplicaRequirements are what one replica needs, for InterpretReplica.
	// +optional
	ReplicaRequirements *workv1alpha2.ReplicaRequirements `json:"replicaRequirements,omitempty"`

	// Replicas is the object's replica count, for InterpretReplica.
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`

	// Components are the object's components, for InterpretComponent.
	// +optional
	Components []workv1alpha2.Component `json:"components,omitempty"`

	// Dependencies are what the object depends on, for
	// InterpretDependency.
	// +optional
	Dependencies []DependentObjectReference `json:"dependencies,omitempty"`

	// RawStatus is the status to report, for InterpretStatus.
	// +optional
	RawStatus *runtime.RawExtension `json:"rawStatus,omitempty"`

	// Healthy is the object's health, for InterpretHealth.
	// +optional
	Healthy *bool `json:"healthy,omitempty"`
}

// RequestStatus says why a webhook could not answer.
type RequestStatus struct {
	// Message explains it.
	// +optional
	Message string `json:"message,omitempty"`

	// Code is an HTTP status code.
	// +optional
	Code int32 `json:"code,omitempty"`
}

// PatchType is the type of a webhook's patch.
type PatchType string

// PatchTypeJSONPatch is RFC 6902's JSON patch, the only type accepted.
const PatchTypeJSONPatch PatchType = "JSONPatch"
