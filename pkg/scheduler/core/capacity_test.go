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
	"fmt"
	"sync"
	"testing"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/scheduler/core"
	"github.com/mco-org/mco/pkg/scheduler/plugins"
	"github.com/mco-org/mco/pkg/testing/builders"
)

// One scheduler serves many bindings and sees clusters replaced as their
// status changes; what it remembers about a cluster object must never
// outlive the object (run with -race).
func TestSchedulerSeesReplacedClusters(t *testing.T) {
	t.Parallel()
	fw, err := plugins.NewDefaultFramework(nil)
	if err != nil {
		t.Fatal(err)
	}
	s := core.New(fw, core.Steps{})
	rb := builders.NewBinding("web").WithReplicas(4).DynamicWeight().Build()
	decide := func(clusters []*clusterv1alpha1.Cluster) string {
		res, err := s.Schedule(context.Background(), core.Input{Spec: &rb.Spec, Status: &rb.Status, Clusters: clusters})
		if err != nil {
			return err.Error()
		}
		return describe(res.Clusters)
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for round := range 100 {
				// Each round brings new objects, so the scheduler keeps
				// forgetting old ones; the room alternates between rounds.
				small, big := 1, 3
				if (w+round)%2 == 1 {
					small, big = 3, 1
				}
				clusters := []*clusterv1alpha1.Cluster{withRoom("m1", small), withRoom("m2", big)}
				want := fmt.Sprintf("m1:%d m2:%d", small, big)
				if got := decide(clusters); got != want {
					t.Errorf("worker %d round %d: got %q, want %q", w, round, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}
