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

package plugins_test

import (
	"context"
	"testing"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/scheduler/framework"
)

// feasible is the verdict of a filter that lets the cluster through.
const feasible = "feasible"

// verdict runs the plugin's PreFilter (if any) and Filter on one cluster
// with a fresh state, and describes the outcome: "feasible", the reason for
// an Unschedulable status, or "error: <message>".
func verdict(t *testing.T, p framework.Plugin, state *framework.CycleState,
	binding *workv1alpha2.ResourceBinding, cluster *clusterv1alpha1.Cluster) string {
	t.Helper()
	if state == nil {
		state = framework.NewCycleState()
	}
	ctx := context.Background()
	st := (*framework.Status)(nil)
	if pf, ok := p.(framework.PreFilterPlugin); ok {
		st = pf.PreFilter(ctx, state, &binding.Spec, &binding.Status)
	}
	if st.IsSuccess() {
		st = p.(framework.FilterPlugin).Filter(ctx, state, &binding.Spec, &binding.Status, cluster)
	}
	switch st.Code() {
	case framework.Success:
		return feasible
	case framework.Unschedulable:
		if st.Plugin() != p.Name() {
			t.Errorf("status names plugin %q, want %q", st.Plugin(), p.Name())
		}
		return st.Message()
	}
	return "error: " + st.Message()
}

func mustNew(t *testing.T, factory framework.PluginFactory) framework.Plugin {
	t.Helper()
	p, err := factory()
	if err != nil {
		t.Fatalf("factory: %v", err)
	}
	return p
}
