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
	"slices"
	"testing"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/scheduler/spread"
	"github.com/mco-org/mco/pkg/testing/builders"
)

func TestSelectByRegion(t *testing.T) {
	t.Parallel()
	fleet := []spread.Candidate{
		cand(in("eu1", "eu"), 100, 2),
		cand(in("eu2", "eu"), 0, 3),
		cand(in("us1", "us"), 50, 20),
		cand(in("ap1", "ap"), 0, 1),
		cand(builders.NewCluster("nowhere"), 100, 100),
	}
	runSelectCases(t, []selectCase{
		{
			name:        "Fewer regions than minGroups is an error; clusters without a region do not count.",
			candidates:  fleet,
			constraints: []policyv1alpha1.SpreadConstraint{byField(region, 4, 4), byField(cluster, 4, 4)},
			wantErr:     "the number of feasible regions (3) is less than minGroups 4",
		},
		{
			name:        "The regions with the best group score are kept and each gets its best cluster.",
			candidates:  fleet,
			constraints: []policyv1alpha1.SpreadConstraint{byField(region, 2, 2), byField(cluster, 2, 2)},
			want:        []string{"eu1", "us1"},
		},
		{
			name:        "Remaining cluster slots are filled by rank within the chosen regions.",
			candidates:  fleet,
			constraints: []policyv1alpha1.SpreadConstraint{byField(region, 2, 2), byField(cluster, 3, 3)},
			want:        []string{"eu1", "us1", "eu2"},
		},
		{
			name:        "Without a cluster constraint every cluster of the chosen regions is used.",
			candidates:  fleet,
			constraints: []policyv1alpha1.SpreadConstraint{byField(region, 1, 1)},
			want:        []string{"eu1", "eu2"},
		},
		{
			name:        "The order of the constraints does not matter.",
			candidates:  fleet,
			constraints: []policyv1alpha1.SpreadConstraint{byField(cluster, 2, 2), byField(region, 2, 2)},
			want:        []string{"eu1", "us1"},
		},
		{
			name:        "A cluster constraint smaller than the region minimum is an error.",
			candidates:  fleet,
			constraints: []policyv1alpha1.SpreadConstraint{byField(region, 3, 3), byField(cluster, 1, 2)},
			wantErr:     "spreading over at least 3 regions needs at least 3 clusters, but the cluster spread constraint allows at most 2",
		},
		{
			name:        "Regions are added only until the cluster minimum is met, so one region may hold every pick.",
			candidates:  fleet,
			constraints: []policyv1alpha1.SpreadConstraint{byField(region, 1, 0), byField(cluster, 1, 2)},
			want:        []string{"eu1", "eu2"},
		},
		{
			name:        "No choice of regions within maxGroups holding the cluster minimum is an error.",
			candidates:  fleet,
			constraints: []policyv1alpha1.SpreadConstraint{byField(region, 1, 1), byField(cluster, 3, 3)},
			wantErr:     "no 1 to 1 regions hold together the 3 clusters the cluster spread constraint's minGroups asks for",
		},
		{
			name:        "Divided scheduling prefers the region that can hold its share of the replicas.",
			candidates:  fleet,
			constraints: []policyv1alpha1.SpreadConstraint{byField(region, 1, 1), byField(cluster, 1, 2)},
			replicas:    10,
			divided:     true,
			want:        []string{"us1"},
		},
		{
			name: "Divided scheduling by region does not swap clusters for capacity, as Karmada's does not.",
			candidates: []spread.Candidate{
				cand(in("a", "r1"), 100, 1), cand(in("b", "r2"), 90, 1), cand(in("d", "r1"), 10, 30),
			},
			constraints: []policyv1alpha1.SpreadConstraint{byField(region, 2, 2), byField(cluster, 2, 2)},
			replicas:    20,
			divided:     true,
			wantErr:     "the selected clusters can take 2 more replicas, fewer than the 20 needed",
		},
	})
}

func TestSelectByZone(t *testing.T) {
	t.Parallel()
	fleet := []spread.Candidate{
		cand(in("wide", "r", "z1", "z2"), 100, 5),
		cand(in("a", "r", "z1"), 50, 5),
		cand(in("c", "r", "z3"), 10, 5),
		cand(builders.NewCluster("legacy").WithDeprecatedZone("z4"), 0, 5),
		cand(builders.NewCluster("zoneless"), 100, 5),
	}
	runSelectCases(t, []selectCase{
		{
			name:        "A cluster spanning two zones counts in both.",
			candidates:  fleet[:1],
			constraints: []policyv1alpha1.SpreadConstraint{byField(zone, 2, 2), byField(cluster, 1, 1)},
			want:        []string{"wide"},
		},
		{
			name:        "A zone listed twice on a cluster counts once.",
			candidates:  []spread.Candidate{cand(in("dup", "r", "z1", "z1"), 0, 1)},
			constraints: []policyv1alpha1.SpreadConstraint{byField(zone, 2, 2), byField(cluster, 1, 1)},
			wantErr:     "the number of feasible zones (1) is less than minGroups 2",
		},
		{
			name:        "A cluster spanning a zone that was not chosen is left out.",
			candidates:  fleet,
			constraints: []policyv1alpha1.SpreadConstraint{byField(zone, 1, 1), byField(cluster, 1, 3)},
			want:        []string{"a"},
		},
		{
			name:        "Fewer zones than minGroups is an error; the deprecated zone field counts.",
			candidates:  fleet,
			constraints: []policyv1alpha1.SpreadConstraint{byField(zone, 5, 5), byField(cluster, 1, 5)},
			wantErr:     "the number of feasible zones (4) is less than minGroups 5",
		},
		{
			name:        "Zones are added only until the cluster minimum is met, not up to maxGroups.",
			candidates:  fleet,
			constraints: []policyv1alpha1.SpreadConstraint{byField(zone, 1, 2), byField(cluster, 1, 3)},
			want:        []string{"a"},
		},
		{
			name:        "Zones are chosen so that every chosen region keeps one, and a two-zone cluster would exceed maxGroups.",
			candidates:  append(slices.Clone(fleet), cand(in("other", "r2", "y1"), 60, 5)),
			constraints: []policyv1alpha1.SpreadConstraint{byField(zone, 2, 2), byField(region, 2, 2), byField(cluster, 1, 3)},
			want:        []string{"other", "a"},
		},
		{
			name:        "Zone groups emptied by an earlier choice do not count toward minGroups.",
			candidates:  []spread.Candidate{cand(in("a", "r1", "z1"), 0, 1), cand(in("b", "r2", "z2"), 0, 1)},
			constraints: []policyv1alpha1.SpreadConstraint{byField(zone, 2, 2), byField(region, 1, 1), byField(cluster, 1, 2)},
			wantErr:     "the number of feasible zones (1) is less than minGroups 2",
		},
	})
}

func TestSelectByProviderAndLabel(t *testing.T) {
	t.Parallel()
	fleet := []spread.Candidate{
		cand(builders.NewCluster("aws1").WithProvider("aws").WithLabel("team", "a"), 100, 1),
		cand(builders.NewCluster("aws2").WithProvider("aws").WithLabel("team", "b"), 90, 1),
		cand(builders.NewCluster("gcp1").WithProvider("gcp").WithLabel("team", "a"), 10, 1),
		cand(builders.NewCluster("bare"), 100, 1),
	}
	runSelectCases(t, []selectCase{
		{
			name:        "Fewer providers than minGroups is an error.",
			candidates:  fleet,
			constraints: []policyv1alpha1.SpreadConstraint{byField(provider, 3, 3), byField(cluster, 3, 3)},
			wantErr:     "the number of feasible providers (2) is less than minGroups 3",
		},
		{
			name:        "Each chosen provider gets a cluster.",
			candidates:  fleet,
			constraints: []policyv1alpha1.SpreadConstraint{byField(provider, 2, 2), byField(cluster, 2, 2)},
			want:        []string{"aws1", "gcp1"},
		},
		{
			name:        "More providers than maxGroups keeps the best.",
			candidates:  fleet,
			constraints: []policyv1alpha1.SpreadConstraint{byField(provider, 1, 1), byField(cluster, 1, 5)},
			want:        []string{"aws1", "aws2"},
		},
		{
			name:        "Fewer label values than minGroups is an error.",
			candidates:  fleet,
			constraints: []policyv1alpha1.SpreadConstraint{byLabel("team", 3, 0)},
			wantErr:     `the number of feasible groups of label "team" (2) is less than minGroups 3`,
		},
		{
			name:        "Spreading by label keeps the best label values and ignores unlabelled clusters.",
			candidates:  fleet,
			constraints: []policyv1alpha1.SpreadConstraint{byLabel("team", 1, 1)},
			want:        []string{"aws1", "gcp1"},
		},
		{
			name:        "Label and provider constraints combine.",
			candidates:  fleet,
			constraints: []policyv1alpha1.SpreadConstraint{byLabel("team", 2, 2), byField(provider, 1, 1), byField(cluster, 2, 2)},
			want:        []string{"aws1", "aws2"},
		},
	})
}
