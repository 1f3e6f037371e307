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

import (
	"context"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/scheduler/framework"
)

// ClusterEvictionName is the registry name of the ClusterEviction filter.
const ClusterEvictionName = "ClusterEviction"

// ReasonEvicting is the reason given for a cluster the binding is being
// evicted from.
const ReasonEvicting = "cluster(s) is in the process of eviction"

var evicting = framework.NewStatus(framework.Unschedulable, ReasonEvicting).WithPlugin(ClusterEvictionName)

// ClusterEviction keeps the scheduler from placing a binding back onto a
// cluster named in one of its spec.gracefulEvictionTasks.
type ClusterEviction struct{}

var _ framework.FilterPlugin = &ClusterEviction{}

// NewClusterEviction builds the plugin.
func NewClusterEviction() (framework.Plugin, error) {
	return &ClusterEviction{}, nil
}

// Name returns ClusterEvictionName.
func (p *ClusterEviction) Name() string {
	return ClusterEvictionName
}

// Filter rejects clusters under eviction. Eviction tasks are few, so a scan
// beats building an index.
func (p *ClusterEviction) Filter(_ context.Context, _ *framework.CycleState, spec *workv1alpha2.ResourceBindingSpec,
	_ *workv1alpha2.ResourceBindingStatus, cluster *clusterv1alpha1.Cluster) *framework.Status {
	for i := range spec.GracefulEvictionTasks {
		if spec.GracefulEvictionTasks[i].FromCluster == cluster.Name {
			return evicting
		}
	}
	return nil
}
