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
	"fmt"
	"testing"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/scheduler/spread"
	"github.com/mco-org/mco/pkg/testing/builders"
)

// grid builds, for each region, clusters named region-a, region-b, ...
// with the same score and room.
func grid(regions []string, perRegion int, score, room int64) []spread.Candidate {
	var out []spread.Candidate
	for _, r := range regions {
		for i := range perRegion {
			out = append(out, cand(in(fmt.Sprintf("%s-%c", r, 'a'+i), r), score, room))
		}
	}
	return out
}

func TestSelectChoosesRegionsAsKarmada(t *testing.T) {
	t.Parallel()
	runSelectCases(t, []selectCase{
		{
			// Checked against Karmada's scheduler: 2 regions, 2 replicas each.
			name:        "Regions are added until the cluster minimum is met, then the clusters fill up to the cluster maximum.",
			candidates:  grid([]string{"r1", "r2", "r3"}, 4, 0, 10),
			constraints: []policyv1alpha1.SpreadConstraint{byField(region, 2, 3), byField(cluster, 2, 6)},
			replicas:    12,
			divided:     true,
			want:        []string{"r1-a", "r1-b", "r1-c", "r1-d", "r2-a", "r2-b"},
		},
		{
			name:        "A third region is added when two cannot hold the cluster minimum.",
			candidates:  grid([]string{"r1", "r2", "r3"}, 2, 0, 10),
			constraints: []policyv1alpha1.SpreadConstraint{byField(region, 1, 3), byField(cluster, 5, 6)},
			want:        []string{"r1-a", "r1-b", "r2-a", "r2-b", "r3-a", "r3-b"},
		},
		{
			name:        "Equal regions are told apart by name.",
			candidates:  grid([]string{"west", "north", "east"}, 2, 0, 10),
			constraints: []policyv1alpha1.SpreadConstraint{byField(region, 1, 3), byField(cluster, 1, 4)},
			want:        []string{"east-a", "east-b"},
		},
		{
			name: "Duplicated scheduling prefers the region with more clusters able to run every replica.",
			candidates: []spread.Candidate{
				cand(in("small-1", "small"), 0, 5), cand(in("small-2", "small"), 0, 5),
				cand(in("big-1", "big"), 100, 5), cand(in("big-2", "big"), 100, 1), cand(in("big-3", "big"), 100, 1),
			},
			constraints: []policyv1alpha1.SpreadConstraint{byField(region, 1, 2), byField(cluster, 1, 4)},
			replicas:    5,
			want:        []string{"small-1", "small-2"},
		},
		{
			name: "Among regions with as many clusters able to run every replica, the better scored wins.",
			candidates: []spread.Candidate{
				cand(in("a-1", "a"), 0, 5), cand(in("b-1", "b"), 10, 5),
			},
			constraints: []policyv1alpha1.SpreadConstraint{byField(region, 1, 2), byField(cluster, 1, 2)},
			replicas:    5,
			want:        []string{"b-1"},
		},
		{
			// The share is 10/1+1 = 11 replicas. one-1 holds it alone with
			// score 100; two-1 and two-2 together, mean score 50; short
			// holds 5 only.
			name: "Divided scheduling prefers the region holding its share with the best clusters.",
			candidates: []spread.Candidate{
				cand(in("two-1", "two"), 100, 6), cand(in("two-2", "two"), 0, 6),
				cand(in("one-1", "one"), 100, 20),
				cand(in("short-1", "short"), 100, 5),
			},
			constraints: []policyv1alpha1.SpreadConstraint{byField(region, 1, 1), byField(cluster, 1, 3)},
			replicas:    10,
			divided:     true,
			want:        []string{"one-1"},
		},
		{
			// The share is 8/2+1 = 5 replicas: z holds it, y 4 of it, x 3.
			name: "Divided scheduling prefers regions with more room toward their share to better scored ones.",
			candidates: []spread.Candidate{
				cand(in("x-1", "x"), 100, 3), cand(in("y-1", "y"), 0, 4), cand(in("z-1", "z"), 0, 6),
			},
			constraints: []policyv1alpha1.SpreadConstraint{byField(region, 2, 2), byField(cluster, 2, 2)},
			replicas:    8,
			divided:     true,
			want:        []string{"z-1", "y-1"},
		},
		{
			// Search order: low (1 cluster), high (2). {low, high} is found
			// first and weighs most; listed by weight it starts with high,
			// which holds the 2 clusters alone and so replaces it.
			name: "A kept choice leading the best one in weight order replaces it.",
			candidates: []spread.Candidate{
				cand(in("l1", "low"), 0, 1), cand(in("h1", "high"), 0, 1), cand(in("h2", "high"), 0, 1),
			},
			constraints: []policyv1alpha1.SpreadConstraint{byField(region, 1, 2), byField(cluster, 2, 4)},
			replicas:    1,
			want:        []string{"h1", "h2"},
		},
	})
}

func TestSelectChoosesOtherGroupsAsRegions(t *testing.T) {
	t.Parallel()
	fleet := []spread.Candidate{
		cand(builders.NewCluster("aws1").WithProvider("aws").WithLabel("rack", "r1").WithZones("z1"), 0, 1),
		cand(builders.NewCluster("aws2").WithProvider("aws").WithLabel("rack", "r1").WithZones("z1"), 0, 1),
		cand(builders.NewCluster("gcp1").WithProvider("gcp").WithLabel("rack", "r2").WithZones("z2"), 0, 1),
	}
	// Every field lines up z1/r1/aws (2 clusters) and z2/r2/gcp (1): the
	// set {small, big} weighs most but big leads it and holds 2 alone.
	for _, c := range []policyv1alpha1.SpreadConstraint{byField(provider, 1, 2), byField(zone, 1, 2), byLabel("rack", 1, 2)} {
		runSelectCases(t, []selectCase{{
			name:        fmt.Sprintf("Spreading by %s%s follows the region rule.", c.SpreadByField, c.SpreadByLabel),
			candidates:  fleet,
			constraints: []policyv1alpha1.SpreadConstraint{c, byField(cluster, 2, 3)},
			replicas:    1,
			want:        []string{"aws1", "aws2"},
		}})
	}
	// 20 groups: more than the 16 whose sets are enumerated.
	many := make([]spread.Candidate, 20)
	for i := range many {
		many[i] = cand(builders.NewCluster(fmt.Sprintf("c%02d", i)).WithLabel("host", fmt.Sprintf("h%02d", i)), int64(i), 1)
	}
	runSelectCases(t, []selectCase{{
		name:        "With more groups than are enumerated the choice is the same: the best scored groups holding the cluster minimum.",
		candidates:  many,
		constraints: []policyv1alpha1.SpreadConstraint{byLabel("host", 2, 5), byField(cluster, 3, 5)},
		want:        []string{"c19", "c18", "c17"},
	}})
}
