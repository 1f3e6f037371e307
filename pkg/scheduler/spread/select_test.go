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

package spread_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/scheduler/spread"
	"github.com/mco-org/mco/pkg/testing/builders"
)

// cand makes a candidate from a cluster builder.
func cand(b *builders.ClusterBuilder, score, available int64) spread.Candidate {
	return spread.Candidate{Cluster: b.Build(), Score: score, Available: available}
}

func in(name, region string, zones ...string) *builders.ClusterBuilder {
	return builders.NewCluster(name).WithRegion(region).WithZones(zones...)
}

func byField(field policyv1alpha1.SpreadFieldValue, minGroups, maxGroups int) policyv1alpha1.SpreadConstraint {
	return policyv1alpha1.SpreadConstraint{SpreadByField: field, MinGroups: minGroups, MaxGroups: maxGroups}
}

func byLabel(key string, minGroups, maxGroups int) policyv1alpha1.SpreadConstraint {
	return policyv1alpha1.SpreadConstraint{SpreadByLabel: key, MinGroups: minGroups, MaxGroups: maxGroups}
}

const (
	cluster  = policyv1alpha1.SpreadByFieldCluster
	region   = policyv1alpha1.SpreadByFieldRegion
	zone     = policyv1alpha1.SpreadByFieldZone
	provider = policyv1alpha1.SpreadByFieldProvider
)

type selectCase struct {
	name        string
	candidates  []spread.Candidate
	constraints []policyv1alpha1.SpreadConstraint
	replicas    int32
	divided     bool
	want        []string // chosen cluster names, in rank order
	wantErr     string
}

func runSelectCases(t *testing.T, tests []selectCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := spread.Select(tt.candidates, tt.constraints, tt.replicas, tt.divided)
			if tt.wantErr != "" {
				var spreadErr *spread.Error
				if !errors.As(err, &spreadErr) || err.Error() != tt.wantErr {
					t.Fatalf("Select() error = %v, want *spread.Error %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Select() error = %v", err)
			}
			if names := nameList(got); !slices.Equal(names, tt.want) {
				t.Errorf("Select() = %q, want %q", names, tt.want)
			}
		})
	}
}

func nameList(cs []spread.Candidate) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Cluster.Name
	}
	return out
}

func TestSelectByCluster(t *testing.T) {
	t.Parallel()
	three := []spread.Candidate{
		cand(builders.NewCluster("m1"), 0, 5),
		cand(builders.NewCluster("m2"), 100, 1),
		cand(builders.NewCluster("m3"), 0, 9),
	}
	runSelectCases(t, []selectCase{
		{
			name:       "Without constraints every candidate is kept in the given order.",
			candidates: three,
			want:       []string{"m1", "m2", "m3"},
		},
		{
			name:        "Fewer clusters than minGroups is an error.",
			candidates:  three,
			constraints: []policyv1alpha1.SpreadConstraint{byField(cluster, 4, 5)},
			wantErr:     "the number of feasible clusters (3) is less than minGroups 4",
		},
		{
			name:        "The best clusters by score, then available replicas, fill maxGroups.",
			candidates:  three,
			constraints: []policyv1alpha1.SpreadConstraint{byField(cluster, 1, 2)},
			want:        []string{"m2", "m3"},
		},
		{
			name: "Equal clusters are told apart by name.",
			candidates: []spread.Candidate{
				cand(builders.NewCluster("m2"), 10, 1), cand(builders.NewCluster("m1"), 10, 1), cand(builders.NewCluster("m0"), 5, 1),
			},
			constraints: []policyv1alpha1.SpreadConstraint{byField(cluster, 1, 2)},
			want:        []string{"m1", "m2"},
		},
		{
			name:        "Without maxGroups every cluster is used.",
			candidates:  three,
			constraints: []policyv1alpha1.SpreadConstraint{byField(cluster, 2, 0)},
			want:        []string{"m2", "m3", "m1"},
		},
		{
			name:        "An empty constraint spreads by cluster with at least one group.",
			candidates:  three,
			constraints: []policyv1alpha1.SpreadConstraint{{MaxGroups: 1}},
			want:        []string{"m2"},
		},
		{
			name:        "Divided scheduling swaps a small pick for a bigger cluster when the replicas do not fit.",
			candidates:  three,
			constraints: []policyv1alpha1.SpreadConstraint{byField(cluster, 1, 1)},
			replicas:    4,
			divided:     true,
			want:        []string{"m3"},
		},
		{
			name:        "Divided scheduling keeps the best picks when they already fit.",
			candidates:  three,
			constraints: []policyv1alpha1.SpreadConstraint{byField(cluster, 1, 2)},
			replicas:    10,
			divided:     true,
			want:        []string{"m2", "m3"},
		},
		{
			name:        "Divided scheduling swaps the smallest pick first.",
			candidates:  three,
			constraints: []policyv1alpha1.SpreadConstraint{byField(cluster, 1, 2)},
			replicas:    14,
			divided:     true,
			want:        []string{"m3", "m1"},
		},
		{
			name:        "Divided scheduling fails when even the biggest clusters cannot hold the replicas.",
			candidates:  three,
			constraints: []policyv1alpha1.SpreadConstraint{byField(cluster, 1, 2)},
			replicas:    15,
			divided:     true,
			wantErr:     "the selected clusters can take 14 more replicas, fewer than the 15 needed",
		},
		{
			name:        "Duplicated scheduling ignores capacity.",
			candidates:  three,
			constraints: []policyv1alpha1.SpreadConstraint{byField(cluster, 1, 1)},
			replicas:    100,
			want:        []string{"m2"},
		},
	})
}

func TestSelectRefusesMalformedConstraints(t *testing.T) {
	t.Parallel()
	candidates := []spread.Candidate{cand(in("m1", "r"), 0, 1)}
	runSelectCases(t, []selectCase{
		{
			name:        "An unknown field is refused.",
			candidates:  candidates,
			constraints: []policyv1alpha1.SpreadConstraint{byField("rack", 1, 1)},
			wantErr:     `unsupported spreadByField "rack"`,
		},
		{
			name:        "A field and a label in one constraint are refused.",
			candidates:  candidates,
			constraints: []policyv1alpha1.SpreadConstraint{{SpreadByField: region, SpreadByLabel: "team"}},
			wantErr:     `spread constraint sets both spreadByField "region" and spreadByLabel "team"`,
		},
		{
			name:        "Two constraints on one field are refused.",
			candidates:  candidates,
			constraints: []policyv1alpha1.SpreadConstraint{byField(region, 1, 1), byField(region, 1, 2)},
			wantErr:     "more than one spread constraint by field region",
		},
		{
			name:        "maxGroups below minGroups is refused.",
			candidates:  candidates,
			constraints: []policyv1alpha1.SpreadConstraint{byField(region, 2, 1)},
			wantErr:     "maxGroups 1 of the field region spread constraint is less than minGroups 2",
		},
	})
}

func TestSelectDoesNotReorderTheCallersSlice(t *testing.T) {
	t.Parallel()
	candidates := []spread.Candidate{cand(builders.NewCluster("b"), 0, 1), cand(builders.NewCluster("a"), 9, 1)}
	if _, err := spread.Select(candidates, []policyv1alpha1.SpreadConstraint{byField(cluster, 1, 2)}, 0, false); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(nameList(candidates), ","); got != "b,a" {
		t.Errorf("caller's slice became %s", got)
	}
}
