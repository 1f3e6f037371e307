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

// Package v1alpha1 holds mco's own rollout.mco-org.github.io/v1alpha1 API:
// RolloutPolicy and ClusterRolloutPolicy, which stage a template's changes
// across waves of member clusters, and Rollout, mco's record of one
// template's staged rollout (its revisions, waves, per-cluster health and
// history). Karmada's kinds stay wire-identical; nothing here adds a field
// to them.
//
// +k8s:deepcopy-gen=package
// +k8s:openapi-gen=true
// +k8s:openapi-model-package=io.github.mco-org.rollout.v1alpha1
// +groupName=rollout.mco-org.github.io
package v1alpha1
