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

// Package v1alpha1 holds mco's own addons.mco-org.github.io/v1alpha1 API:
// Addon, a Helm chart kept at one version on every cluster a
// ClusterPropagationPolicy places it on, rendered for each cluster with
// its own values, after the add-ons it depends on and never beside those
// it conflicts with. An Addon is a template like any other: placement,
// overrides, staged rollouts and pull mode apply to it unchanged.
//
// +k8s:deepcopy-gen=package
// +k8s:openapi-gen=true
// +k8s:openapi-model-package=io.github.mco-org.addons.v1alpha1
// +groupName=addons.mco-org.github.io
package v1alpha1
