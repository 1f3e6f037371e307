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

// Package v1alpha1 holds the autoscaling.karmada.io/v1alpha1 API types,
// wire-compatible with Karmada's group of the same name: the FederatedHPA,
// one autoscaler on the control plane that reads the load of a workload's
// pods in every member and sets the template's replicas, and the
// CronFederatedHPA, which sets replicas (or a FederatedHPA's bounds) on a
// schedule.
//
// +k8s:deepcopy-gen=package
// +k8s:openapi-gen=true
// +k8s:openapi-model-package=io.karmada.autoscaling.v1alpha1
// +groupName=autoscaling.karmada.io
package v1alpha1
