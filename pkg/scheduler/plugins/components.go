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
	"fmt"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/scheduler/estimate"
	"github.com/mco-org/mco/pkg/scheduler/framework"
)

// ComponentsFitName is the registry name of the ComponentsFit filter.
const ComponentsFitName = "ComponentsFit"

// ComponentsFit keeps a workload with several pod templates
// (spec.components, Karmada's MultiplePodTemplatesScheduling) off the
// clusters that cannot hold one complete set of its components: such a
// workload goes whole to each cluster chosen, so every component must fit
// there. A cluster the binding already runs on passes, so that the room
// the workload itself takes never moves it. Bindings without components
// pass.
type ComponentsFit struct{}

var _ framework.FilterPlugin = &ComponentsFit{}

// NewComponentsFit builds the plugin.
func NewComponentsFit() (framework.Plugin, error) { return &ComponentsFit{}, nil }

// Name returns ComponentsFitName.
func (p *ComponentsFit) Name() string { return ComponentsFitName }

// Filter rejects a cluster without room for one set of the components.
func (p *ComponentsFit) Filter(_ context.Context, _ *framework.CycleState, spec *workv1alpha2.ResourceBindingSpec,
	_ *workv1alpha2.ResourceBindingStatus, cluster *clusterv1alpha1.Cluster) *framework.Status {
	if len(spec.Components) == 0 || targets(spec, cluster.Name) {
		return nil
	}
	sets, limit := estimate.ComponentSets(cluster, spec.Components)
	if sets >= 1 {
		return nil
	}
	return framework.NewStatus(framework.Unschedulable,
		fmt.Sprintf("cluster(s) cannot hold one set of the workload's %d components (short of %s)", len(spec.Components), limit)).
		WithPlugin(ComponentsFitName)
}

// targets tells whether the binding is scheduled to the named cluster.
func targets(spec *workv1alpha2.ResourceBindingSpec, name string) bool {
	for i := range spec.Clusters {
		if spec.Clusters[i].Name == name {
			return true
		}
	}
	return false
}
