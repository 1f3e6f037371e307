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

package core_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/scheduler/core"
	"github.com/mco-org/mco/pkg/scheduler/plugins"
	"github.com/mco-org/mco/pkg/testing/builders"
)

// scheduleCase is one decision through the whole pipeline. want describes
// the result as "name:replicas" pairs in name order; wantErr, when set, is
// the exact message of the *core.UnschedulableError expected instead.
type scheduleCase struct {
	name         string
	binding      *builders.BindingBuilder
	clusters     []*clusterv1alpha1.Cluster
	want         string
	wantAffinity string
	wantErr      string
}

// run schedules every case in parallel with the default framework.
func run(t *testing.T, cases []scheduleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := schedule(t, tc.binding.Build(), tc.clusters)
			if tc.wantErr != "" {
				var unsched *core.UnschedulableError
				if !errors.As(err, &unsched) {
					t.Fatalf("got %q (error %v), want an UnschedulableError %q", describe(got.Clusters), err, tc.wantErr)
				}
				if err.Error() != tc.wantErr {
					t.Errorf("message:\n got %q\nwant %q", err.Error(), tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if d := describe(got.Clusters); d != tc.want {
				t.Errorf("clusters = %q, want %q", d, tc.want)
			}
			if got.AffinityName != tc.wantAffinity {
				t.Errorf("affinity name = %q, want %q", got.AffinityName, tc.wantAffinity)
			}
		})
	}
}

// schedule makes one decision for the binding with the default plugins.
func schedule(t *testing.T, rb *workv1alpha2.ResourceBinding, clusters []*clusterv1alpha1.Cluster) (core.Result, error) {
	t.Helper()
	fw, err := plugins.NewDefaultFramework(nil)
	if err != nil {
		t.Fatalf("default framework: %v", err)
	}
	return core.New(fw, core.Steps{}).Schedule(context.Background(), core.Input{
		Spec: &rb.Spec, Status: &rb.Status, UID: string(rb.UID), Clusters: clusters,
	})
}

// describe renders a result as "m1:3 m2:5".
func describe(targets []workv1alpha2.TargetCluster) string {
	parts := make([]string, len(targets))
	for i, tc := range targets {
		parts[i] = fmt.Sprintf("%s:%d", tc.Name, tc.Replicas)
	}
	return strings.Join(parts, " ")
}

// member starts a cluster serving Deployments and ConfigMaps.
func member(name string) *builders.ClusterBuilder {
	return builders.NewCluster(name).WithAPI("apps/v1", "Deployment").WithAPI("v1", "ConfigMap")
}

// withRoom is a member that has room for exactly pods more replicas of a
// binding without resource requests.
func withRoom(name string, pods int) *clusterv1alpha1.Cluster {
	return member(name).WithAllocatable(corev1.ResourcePods, fmt.Sprint(pods)).Build()
}

// members builds plain members with the given names.
func members(names ...string) []*clusterv1alpha1.Cluster {
	out := make([]*clusterv1alpha1.Cluster, len(names))
	for i, n := range names {
		out[i] = member(n).Build()
	}
	return out
}
