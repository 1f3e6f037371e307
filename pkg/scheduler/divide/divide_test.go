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

package divide

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// c builds a candidate with previous replicas and available capacity.
func c(name string, previous int32, available int64) Candidate {
	return Candidate{Name: name, Previous: previous, Available: available}
}

// w builds a candidate with a static weight.
func w(name string, weight int64) Candidate {
	return Candidate{Name: name, Weight: weight}
}

// tc lists "name, replicas" pairs as a result.
func tc(pairs ...any) []workv1alpha2.TargetCluster {
	var out []workv1alpha2.TargetCluster
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, workv1alpha2.TargetCluster{Name: pairs[i].(string), Replicas: int32(pairs[i+1].(int))})
	}
	return out
}

func TestDuplicated(t *testing.T) {
	t.Parallel()
	if got, want := Duplicated(3, []string{"b", "a", "b"}), tc("a", 3, "b", 3); !cmp.Equal(got, want) {
		t.Errorf("Duplicated sorts and removes repeats: got %v, want %v", got, want)
	}
	if got, want := Duplicated(0, []string{"b", "a"}), tc("a", 0, "b", 0); !cmp.Equal(got, want) {
		t.Errorf("Duplicated keeps clusters with zero replicas: got %v, want %v", got, want)
	}
}

func TestStaticWeight(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		replicas int32
		cands    []Candidate
		uid      string
		want     []workv1alpha2.TargetCluster
	}{
		{name: "Replicas follow the weights.", replicas: 6, cands: []Candidate{w("b", 1), w("a", 2)}, want: tc("a", 4, "b", 2)},
		{name: "A cluster weighing zero gets nothing.", replicas: 4, cands: []Candidate{w("a", 1), w("b", 0), w("c", 1)}, want: tc("a", 2, "c", 2)},
		{name: "When every weight is zero all clusters weigh one.", replicas: 3, cands: []Candidate{w("a", 0), w("b", 0), w("c", 0)}, want: tc("a", 1, "b", 1, "c", 1)},
		{name: "Previous replicas and capacity are ignored.", replicas: 4, cands: []Candidate{{Name: "a", Weight: 1, Previous: 4}, {Name: "b", Weight: 1, Available: 0}}, want: tc("a", 2, "b", 2)},
		{name: "Weights 5:3 with 4 replicas split 2/2.", replicas: 4, cands: []Candidate{w("a", 5), w("b", 3)}, want: tc("a", 2, "b", 2)},
		{name: "An odd UID hash gives the odd replica to the larger name.", replicas: 3, cands: []Candidate{w("a", 1), w("b", 1)}, uid: oddUID, want: tc("a", 1, "b", 2)},
		{name: "An even UID hash gives the odd replica to the smaller name.", replicas: 3, cands: []Candidate{w("a", 1), w("b", 1)}, uid: evenUID, want: tc("a", 2, "b", 1)},
		{name: "No candidates give no result.", replicas: 3},
		{name: "Zero replicas give no result.", replicas: 0, cands: []Candidate{w("a", 1)}},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := StaticWeight(tt.replicas, tt.cands, tt.uid); !cmp.Equal(got, tt.want) {
				t.Fatalf("StaticWeight(%d) = %v, want %v", tt.replicas, got, tt.want)
			}
		})
	}
}

type divideCase struct {
	name     string
	replicas int32
	cands    []Candidate
	uid      string
	fresh    bool
	want     []workv1alpha2.TargetCluster
	wantErr  *InsufficientCapacityError
}

func runDivide(t *testing.T, fn func(int32, []Candidate, string, bool) ([]workv1alpha2.TargetCluster, error), cases []divideCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := fn(tt.replicas, tt.cands, tt.uid, tt.fresh)
			if tt.wantErr != nil {
				var capErr *InsufficientCapacityError
				if !errors.As(err, &capErr) || *capErr != *tt.wantErr {
					t.Fatalf("got error %v, want %v", err, tt.wantErr)
				}
				if got != nil {
					t.Fatalf("got %v alongside the error, want nothing", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if !cmp.Equal(got, tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestDynamicWeight(t *testing.T) {
	t.Parallel()
	runDivide(t, DynamicWeight, []divideCase{
		{name: "A fresh split follows available replicas.", replicas: 4, fresh: true, cands: []Candidate{c("a", 0, 6), c("b", 0, 2)}, want: tc("a", 3, "b", 1)},
		{name: "A fresh split counts previous replicas as capacity.", replicas: 4, fresh: true, cands: []Candidate{c("a", 2, 0), c("b", 0, 2)}, want: tc("a", 2, "b", 2)},
		{name: "A fresh split ignores the previous shape.", replicas: 4, fresh: true, cands: []Candidate{c("a", 4, 0), c("b", 0, 4)}, want: tc("a", 2, "b", 2)},
		{name: "An unbounded cluster outweighs any bounded one.", replicas: 5, fresh: true, cands: []Candidate{c("a", 0, Unbounded), c("b", 0, 10)}, want: tc("a", 5)},
		{name: "A fresh split that does not fit is unschedulable.", replicas: 4, fresh: true, cands: []Candidate{c("a", 1, 1), c("b", 0, 1)}, wantErr: &InsufficientCapacityError{Needed: 4, Available: 3}},
		{name: "An unchanged total keeps the previous assignment even without capacity.", replicas: 4, cands: []Candidate{c("a", 3, 0), c("b", 1, 100), c("c", 0, 50)}, want: tc("a", 3, "b", 1)},
		{name: "Scaling down shrinks the previous assignment in proportion.", replicas: 4, cands: []Candidate{c("a", 6, 0), c("b", 2, 100)}, want: tc("a", 3, "b", 1)},
		{name: "Scaling down never adds clusters.", replicas: 2, uid: evenUID, cands: []Candidate{c("a", 3, 0), c("b", 3, 0), c("c", 0, 100)}, want: tc("a", 1, "b", 1)},
		{name: "Scaling up divides only the increase by available replicas.", replicas: 8, cands: []Candidate{c("a", 2, 1), c("b", 2, 3)}, want: tc("a", 3, "b", 5)},
		{name: "Scaling up may bring in a new cluster.", replicas: 6, cands: []Candidate{c("a", 4, 0), c("b", 0, 9)}, want: tc("a", 4, "b", 2)},
		{name: "Scaling up beyond the available replicas is unschedulable.", replicas: 6, cands: []Candidate{c("a", 2, 1), c("b", 1, 0)}, wantErr: &InsufficientCapacityError{Needed: 3, Available: 1}},
		{name: "Replicas without candidates are unschedulable.", replicas: 3, wantErr: &InsufficientCapacityError{Needed: 3, Available: 0}},
		{name: "Zero replicas give no result.", replicas: 0, cands: []Candidate{c("a", 2, 5)}},
		{name: "Negative available replicas count as none.", replicas: 3, fresh: true, cands: []Candidate{c("a", 0, -5), c("b", 0, 3)}, want: tc("b", 3)},
	})
}

func TestAggregated(t *testing.T) {
	t.Parallel()
	runDivide(t, Aggregated, []divideCase{
		{name: "A fresh split uses the single largest cluster when it suffices.", replicas: 8, fresh: true, cands: []Candidate{c("a", 0, 5), c("b", 0, 3), c("c", 0, 10)}, want: tc("c", 8)},
		{name: "A fresh split takes the fewest largest clusters and divides by capacity.", replicas: 12, fresh: true, cands: []Candidate{c("a", 0, 5), c("b", 0, 3), c("c", 0, 10)}, want: tc("a", 4, "c", 8)},
		{name: "A fresh split prefers clusters already in use.", replicas: 2, fresh: true, cands: []Candidate{c("a", 2, 0), c("b", 0, 10)}, want: tc("a", 2)},
		{name: "Equal capacities are ranked by name.", replicas: 3, fresh: true, uid: oddUID, cands: []Candidate{c("b", 0, 5), c("a", 0, 5)}, want: tc("a", 3)},
		{name: "A fresh split that does not fit is unschedulable.", replicas: 5, fresh: true, cands: []Candidate{c("a", 0, 2), c("b", 0, 2)}, wantErr: &InsufficientCapacityError{Needed: 5, Available: 4}},
		{name: "An unchanged total keeps the previous assignment.", replicas: 5, cands: []Candidate{c("a", 2, 0), c("b", 3, 0), c("c", 0, 100)}, want: tc("a", 2, "b", 3)},
		{name: "Scaling up fills a cluster already in use first.", replicas: 5, cands: []Candidate{c("a", 2, 5), c("b", 0, 10)}, want: tc("a", 5)},
		{name: "Scaling up spills the increase onto the largest new cluster.", replicas: 5, cands: []Candidate{c("a", 2, 1), c("b", 0, 10), c("c", 0, 4)}, want: tc("a", 2, "b", 3)},
		{name: "Scaling up beyond the available replicas is unschedulable.", replicas: 4, cands: []Candidate{c("a", 1, 1)}, wantErr: &InsufficientCapacityError{Needed: 3, Available: 1}},
		{name: "Scaling down keeps the clusters holding most replicas.", replicas: 6, cands: []Candidate{c("a", 4, 0), c("b", 1, 0), c("c", 3, 0)}, want: tc("a", 3, "c", 3)},
		{name: "Scaling down can gather everything on one cluster.", replicas: 3, cands: []Candidate{c("a", 4, 0), c("b", 1, 50)}, want: tc("a", 3)},
		{name: "Zero replicas give no result.", replicas: 0, cands: []Candidate{c("a", 2, 5)}},
	})
}
