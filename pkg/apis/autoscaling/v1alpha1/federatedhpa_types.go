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
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// FederatedHPA scales a resource template on the load of its pods in every
// member cluster that runs it: the desired replicas are computed as
// Kubernetes' HorizontalPodAutoscaler computes them, over the pods of all
// those members, written to the template's scale subresource, and divided
// among the members by the scheduler as the template's policy says.
type FederatedHPA struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec says what to scale, between which bounds and on which metrics.
	// +required
	Spec FederatedHPASpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`

	// Status is the autoscaler's last observation, as a
	// HorizontalPodAutoscaler's.
	// +optional
	Status autoscalingv2.HorizontalPodAutoscalerStatus `json:"status" protobuf:"bytes,3,opt,name=status"`
}

// FederatedHPASpec is a HorizontalPodAutoscaler's spec (autoscaling/v2)
// for a resource template.
type FederatedHPASpec struct {
	// ScaleTargetRef names the resource template to scale; it must serve
	// the scale subresource.
	// +required
	ScaleTargetRef autoscalingv2.CrossVersionObjectReference `json:"scaleTargetRef" protobuf:"bytes,1,opt,name=scaleTargetRef"`

	// MinReplicas is the lower bound of the template's replicas; 1 when
	// unset.
	// +optional
	MinReplicas *int32 `json:"minReplicas,omitempty" protobuf:"varint,2,opt,name=minReplicas"`

	// MaxReplicas is the upper bound; it may not be below MinReplicas.
	MaxReplicas int32 `json:"maxReplicas" protobuf:"varint,3,opt,name=maxReplicas"`

	// Metrics are the sources the desired replicas are computed from (the
	// largest proposal wins); 80 % average CPU utilization when unset.
	// +optional
	Metrics []autoscalingv2.MetricSpec `json:"metrics,omitempty" protobuf:"bytes,4,rep,name=metrics"`

	// Behavior shapes scaling up and down (stabilization windows and
	// policies); Kubernetes' HPA defaults when unset.
	// +optional
	Behavior *autoscalingv2.HorizontalPodAutoscalerBehavior `json:"behavior,omitempty" protobuf:"bytes,5,opt,name=behavior"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// FederatedHPAList is a list of FederatedHPAs.
type FederatedHPAList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []FederatedHPA `json:"items" protobuf:"bytes,2,rep,name=items"`
}
