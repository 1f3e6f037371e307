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

// Package plugins holds the scheduler's built-in filter and score plugins,
// one file each, and the registry that names them.
package plugins

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/scheduler/framework"
)

// APIEnablementName is the registry name of the APIEnablement filter.
const APIEnablementName = "APIEnablement"

// ReasonAPIMissing is the reason given for a cluster that does not serve the
// template's kind.
const ReasonAPIMissing = "cluster(s) did not have the API resource"

var apiMissing = framework.NewStatus(framework.Unschedulable, ReasonAPIMissing).WithPlugin(APIEnablementName)

// APIEnablement keeps only clusters whose status.apiEnablements lists the
// template's apiVersion and kind.
//
// A cluster that already holds the binding is kept whatever its list says:
// an incomplete list proves nothing, and a kind gone from a member (a CRD
// removed there by accident) must not delete every instance of it there.
// The Work keeps retrying the apply and says why on its conditions.
//
// Whether a cluster object serves a kind is remembered across bindings (see
// servedCache).
type APIEnablement struct {
	served servedCache
}

var (
	_ framework.PreFilterPlugin = &APIEnablement{}
	_ framework.FilterPlugin    = &APIEnablement{}
)

// NewAPIEnablement builds the plugin.
func NewAPIEnablement() (framework.Plugin, error) {
	return &APIEnablement{}, nil
}

// Name returns APIEnablementName.
func (p *APIEnablement) Name() string {
	return APIEnablementName
}

// PreFilter picks up what is known about the template's kind.
func (p *APIEnablement) PreFilter(_ context.Context, state *framework.CycleState, spec *workv1alpha2.ResourceBindingSpec,
	_ *workv1alpha2.ResourceBindingStatus) *framework.Status {
	state.Write(servedKey, p.served.pass(spec.Resource.APIVersion, spec.Resource.Kind))
	return nil
}

// Filter rejects clusters that do not serve the template's kind. An Addon
// is not applied as itself but as what its chart renders for each
// cluster (which the cluster's version and API list decide): any cluster
// may take one.
func (p *APIEnablement) Filter(_ context.Context, state *framework.CycleState, spec *workv1alpha2.ResourceBindingSpec,
	_ *workv1alpha2.ResourceBindingStatus, cluster *clusterv1alpha1.Cluster) *framework.Status {
	gv, kind := spec.Resource.APIVersion, spec.Resource.Kind
	if addonsv1alpha1.Is(schema.FromAPIVersionAndKind(gv, kind)) {
		return nil
	}
	var serves bool
	if v, ok := state.Read(servedKey); ok {
		serves = v.(*servedPass).serves(cluster, gv, kind)
	} else { // called without PreFilter
		serves = servesKind(cluster.Status.APIEnablements, gv, kind)
	}
	if serves {
		return nil
	}
	if state.ScheduledClusters(spec).Has(cluster.Name) {
		return nil
	}
	return apiMissing
}

// ServesKind tells whether a cluster lists groupVersion/kind among the
// APIs it serves.
func ServesKind(cluster *clusterv1alpha1.Cluster, groupVersion, kind string) bool {
	return servesKind(cluster.Status.APIEnablements, groupVersion, kind)
}

// servesKind tells whether groupVersion/kind appears in the enablements.
func servesKind(enablements []clusterv1alpha1.APIEnablement, groupVersion, kind string) bool {
	for i := range enablements {
		if enablements[i].GroupVersion != groupVersion {
			continue
		}
		for j := range enablements[i].Resources {
			if enablements[i].Resources[j].Kind == kind {
				return true
			}
		}
	}
	return false
}
