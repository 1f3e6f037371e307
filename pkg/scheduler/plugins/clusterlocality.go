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

// ClusterLocalityName is the registry name of the ClusterLocality scorer.
const ClusterLocalityName = "ClusterLocality"

// ClusterLocality favours the clusters the binding already runs on, so a
// reschedule moves as little as possible.
type ClusterLocality struct{}

var _ framework.ScorePlugin = &ClusterLocality{}

// NewClusterLocality builds the plugin.
func NewClusterLocality() (framework.Plugin, error) {
	return &ClusterLocality{}, nil
}

// Name returns ClusterLocalityName.
func (p *ClusterLocality) Name() string {
	return ClusterLocalityName
}

// Score gives MaxClusterScore to a cluster in spec.clusters and
// MinClusterScore to any other.
func (p *ClusterLocality) Score(_ context.Context, state *framework.CycleState, spec *workv1alpha2.ResourceBindingSpec,
	cluster *clusterv1alpha1.Cluster) (int64, *framework.Status) {
	if state.ScheduledClusters(spec).Has(cluster.Name) {
		return framework.MaxClusterScore, nil
	}
	return framework.MinClusterScore, nil
}
