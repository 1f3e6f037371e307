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

package framework_test

import (
	"slices"
	"testing"

	"github.com/mco-org/mco/pkg/scheduler/framework"
)

func rejected(cluster, plugin string, reasons ...string) framework.Rejection {
	return framework.Rejection{Cluster: cluster, Status: framework.NewStatus(framework.Unschedulable, reasons...).WithPlugin(plugin)}
}

const (
	notReady = "cluster(s) had untolerated taint {cluster.karmada.io/not-ready: }"
	affinity = "cluster(s) did not match the placement cluster affinity"
	noAPI    = "cluster(s) did not have the API resource"
)

func TestFitErrorMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		all      int
		rejected []framework.Rejection
		want     string
	}{
		{
			name: "Reasons are counted per cluster and listed sorted as count-and-reason text.",
			all:  3,
			rejected: []framework.Rejection{
				rejected("m1", "ClusterAffinity", affinity),
				rejected("m2", "TaintToleration", notReady),
				rejected("m3", "ClusterAffinity", affinity),
			},
			want: "0/3 clusters are available: 1 cluster(s) had untolerated taint {cluster.karmada.io/not-ready: }, " +
				"2 cluster(s) did not match the placement cluster affinity.",
		},
		{
			name: "Equal counts fall back to the order of the reason text.",
			all:  2,
			rejected: []framework.Rejection{
				rejected("m1", "ClusterAffinity", affinity),
				rejected("m2", "APIEnablement", noAPI),
			},
			want: "0/2 clusters are available: 1 cluster(s) did not have the API resource, " +
				"1 cluster(s) did not match the placement cluster affinity.",
		},
		{
			name: "Every reason of a status with several reasons is counted.",
			all:  1,
			rejected: []framework.Rejection{
				rejected("m1", "Multi", "a reason", "b reason"),
			},
			want: "0/1 clusters are available: 1 a reason, 1 b reason.",
		},
		{
			name:     "Counts are compared as text, so ten sorts before two, as in Karmada.",
			all:      12,
			rejected: append(repeat(rejected("x", "P", "z reason"), 10), repeat(rejected("y", "P", "a reason"), 2)...),
			want:     "0/12 clusters are available: 10 z reason, 2 a reason.",
		},
		{
			name: "With no cluster at all the message has no reason list.",
			all:  0,
			want: "0/0 clusters are available.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := &framework.FitError{NumAllClusters: tt.all, Diagnosis: framework.Diagnosis{Rejected: tt.rejected}}
			if got := err.Error(); got != tt.want {
				t.Errorf("Error() =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func repeat(r framework.Rejection, n int) []framework.Rejection {
	out := make([]framework.Rejection, n)
	for i := range out {
		out[i] = r
	}
	return out
}

func TestDiagnosisLookups(t *testing.T) {
	t.Parallel()
	d := framework.Diagnosis{Rejected: []framework.Rejection{
		rejected("m1", "TaintToleration", notReady),
		rejected("m2", "ClusterAffinity", affinity),
		rejected("m3", "ClusterAffinity", affinity),
	}}
	if got := d.StatusOf("m2").Plugin(); got != "ClusterAffinity" {
		t.Errorf("StatusOf(m2).Plugin() = %q, want ClusterAffinity", got)
	}
	if got := d.StatusOf("m9"); got != nil {
		t.Errorf("StatusOf(m9) = %v, want nil for a cluster that was not rejected", got)
	}
	if got, want := d.UnschedulablePlugins(), []string{"ClusterAffinity", "TaintToleration"}; !slices.Equal(got, want) {
		t.Errorf("UnschedulablePlugins() = %q, want %q", got, want)
	}
}
