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

package plugins

import "github.com/mco-org/mco/pkg/scheduler/framework"

// DefaultPlugins is the order in which the built-in plugins run: filters
// first (cheapest and most selective early), then the scorer.
var DefaultPlugins = []string{
	APIEnablementName,
	TaintTolerationName,
	ClusterAffinityName,
	ClusterEvictionName,
	WorkloadAffinityName,
	ComponentsFitName,
	ClusterLocalityName,
}

// NewRegistry returns the built-in plugins by name; peers tell the
// WorkloadAffinity filter where other workloads run (nil: nowhere known).
func NewRegistry(peers WorkloadPeers) framework.Registry {
	return framework.Registry{
		APIEnablementName:    NewAPIEnablement,
		TaintTolerationName:  NewTaintToleration,
		ClusterAffinityName:  NewClusterAffinity,
		ClusterEvictionName:  NewClusterEviction,
		WorkloadAffinityName: NewWorkloadAffinity(peers),
		ComponentsFitName:    NewComponentsFit,
		ClusterLocalityName:  NewClusterLocality,
	}
}

// NewDefaultFramework builds a framework running DefaultPlugins.
func NewDefaultFramework(peers WorkloadPeers) (*framework.Framework, error) {
	return framework.New(NewRegistry(peers), DefaultPlugins)
}
