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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Condition types of a MultiClusterService's status, as Karmada names them.
const (
	// ConditionServiceApplied tells whether the Service reached every
	// provider and consumer cluster.
	ConditionServiceApplied = "ServiceApplied"
	// ConditionEndpointSliceDispatched tells whether the providers'
	// EndpointSlices reached every consumer cluster.
	ConditionEndpointSliceDispatched = "EndpointSliceDispatched"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// MultiClusterService exposes the Service of the same name and namespace
// across clusters: with type CrossCluster, the endpoints of its provider
// clusters are given to its consumer clusters, where clients reach the
// Service under its own name.
type MultiClusterService struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec says how and where the Service is exposed.
	Spec MultiClusterServiceSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`

	// Status holds the conditions ServiceApplied and
	// EndpointSliceDispatched.
	// +optional
	Status corev1.ServiceStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// MultiClusterServiceSpec says how and where a Service is exposed.
type MultiClusterServiceSpec struct {
	// Types says how the Service is exposed: one of CrossCluster and
	// LoadBalancer; immutable.
	// +required
	Types []ExposureType `json:"types" protobuf:"bytes,1,rep,name=types,casttype=ExposureType"`

	// Ports limits the exposed ports to these; all the Service's ports
	// when empty.
	// +optional
	Ports []ExposurePort `json:"ports,omitempty" protobuf:"bytes,2,rep,name=ports"`

	// Range names the clusters the Service is exposed in.
	// Deprecated: use ProviderClusters and ConsumerClusters.
	// +optional
	Range ExposureRange `json:"range,omitempty" protobuf:"bytes,3,opt,name=range"`

	// ServiceProvisionClusters are the clusters that provide the Service.
	// Deprecated: use ProviderClusters.
	// +optional
	ServiceProvisionClusters []string `json:"serviceProvisionClusters,omitempty" protobuf:"bytes,4,rep,name=serviceProvisionClusters"`

	// ServiceConsumptionClusters are the clusters that consume the Service.
	// Deprecated: use ConsumerClusters.
	// +optional
	ServiceConsumptionClusters []string `json:"serviceConsumptionClusters,omitempty" protobuf:"bytes,5,rep,name=serviceConsumptionClusters"`

	// ProviderClusters are the clusters whose endpoints back the Service;
	// every joined cluster when empty.
	// +optional
	ProviderClusters []ClusterSelector `json:"providerClusters,omitempty" protobuf:"bytes,6,rep,name=providerClusters"`

	// ConsumerClusters are the clusters where clients reach the Service;
	// every joined cluster when empty.
	// +optional
	ConsumerClusters []ClusterSelector `json:"consumerClusters,omitempty" protobuf:"bytes,7,rep,name=consumerClusters"`
}

// ClusterSelector names one cluster.
type ClusterSelector struct {
	// Name is the cluster's name.
	// +required
	Name string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
}

// ExposureType is a way of exposing a Service.
type ExposureType string

// The ways of exposing a Service.
const (
	// ExposureTypeCrossCluster makes the Service reachable from other
	// clusters.
	ExposureTypeCrossCluster ExposureType = "CrossCluster"
	// ExposureTypeLoadBalancer exposes it through an external load
	// balancer (accepted; mco reports it as not implemented).
	ExposureTypeLoadBalancer ExposureType = "LoadBalancer"
)

// ExposurePort is one exposed port of the Service.
type ExposurePort struct {
	// Name is the port's name in the Service.
	// +optional
	Name string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`

	// Port is the Service's port number.
	// +required
	Port int32 `json:"port" protobuf:"varint,2,opt,name=port"`
}

// ExposureRange names clusters.
type ExposureRange struct {
	// ClusterNames are the clusters' names.
	// +optional
	ClusterNames []string `json:"clusterNames,omitempty" protobuf:"bytes,1,rep,name=clusterNames"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// MultiClusterServiceList is a list of MultiClusterServices.
type MultiClusterServiceList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the MultiClusterServices.
	Items []MultiClusterService `json:"items" protobuf:"bytes,2,rep,name=items"`
}
