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

package validation

import (
	"testing"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

func spreadBy(field policyv1alpha1.SpreadFieldValue, minGroups, maxGroups int) policyv1alpha1.SpreadConstraint {
	return policyv1alpha1.SpreadConstraint{SpreadByField: field, MinGroups: minGroups, MaxGroups: maxGroups}
}

func TestValidatePlacementSpreadConstraints(t *testing.T) {
	t.Parallel()
	const sc = pl + ".spreadConstraints"
	cluster, region := policyv1alpha1.SpreadByFieldCluster, policyv1alpha1.SpreadByFieldRegion
	cases := []struct {
		name        string
		constraints []policyv1alpha1.SpreadConstraint
		want        []fieldErr
	}{
		{
			name:        "A region constraint together with a cluster constraint is valid.",
			constraints: []policyv1alpha1.SpreadConstraint{spreadBy(region, 1, 2), spreadBy(cluster, 2, 4)},
		},
		{
			name:        "A label constraint alone is valid.",
			constraints: []policyv1alpha1.SpreadConstraint{{SpreadByLabel: "topology.example.com/rack", MinGroups: 2}},
		},
		{
			name:        "Zero maxGroups means no upper limit and is valid.",
			constraints: []policyv1alpha1.SpreadConstraint{spreadBy(cluster, 3, 0)},
		},
		{
			name:        "A constraint with neither a field nor a label is rejected.",
			constraints: []policyv1alpha1.SpreadConstraint{{MinGroups: 1}},
			want:        []fieldErr{required(sc + "[0].spreadByField")},
		},
		{
			name: "A constraint with both a field and a label is rejected.",
			constraints: []policyv1alpha1.SpreadConstraint{
				spreadBy(cluster, 1, 0),
				{SpreadByField: cluster, SpreadByLabel: "rack", MinGroups: 1},
			},
			want: []fieldErr{forbidden(sc + "[1].spreadByLabel"), duplicate(sc + "[1].spreadByField")},
		},
		{
			name:        "An unknown spread field is rejected.",
			constraints: []policyv1alpha1.SpreadConstraint{spreadBy("datacenter", 1, 0)},
			want:        []fieldErr{notSupported(sc + "[0].spreadByField")},
		},
		{
			name:        "A spread label that is not a label key is rejected.",
			constraints: []policyv1alpha1.SpreadConstraint{{SpreadByLabel: "not a key", MinGroups: 1}},
			want:        []fieldErr{invalid(sc + "[0].spreadByLabel")},
		},
		{
			name:        "A zone constraint without a cluster constraint is rejected.",
			constraints: []policyv1alpha1.SpreadConstraint{spreadBy(policyv1alpha1.SpreadByFieldZone, 1, 1)},
			want:        []fieldErr{required(sc)},
		},
		{
			name:        "A provider constraint next to a label constraint still needs a cluster constraint.",
			constraints: []policyv1alpha1.SpreadConstraint{spreadBy(policyv1alpha1.SpreadByFieldProvider, 1, 1), {SpreadByLabel: "rack", MinGroups: 1}},
			want:        []fieldErr{required(sc)},
		},
		{
			name:        "Negative minGroups and maxGroups are rejected.",
			constraints: []policyv1alpha1.SpreadConstraint{spreadBy(cluster, -1, -2)},
			want:        []fieldErr{invalid(sc + "[0].minGroups"), invalid(sc + "[0].maxGroups")},
		},
		{
			name:        "maxGroups below minGroups is rejected.",
			constraints: []policyv1alpha1.SpreadConstraint{spreadBy(cluster, 3, 2)},
			want:        []fieldErr{invalid(sc + "[0].maxGroups")},
		},
		{
			name: "Spreading by the same field twice is rejected once per repeat.",
			constraints: []policyv1alpha1.SpreadConstraint{
				spreadBy(region, 1, 1), spreadBy(region, 1, 2), spreadBy(region, 2, 3), spreadBy(cluster, 1, 5),
			},
			want: []fieldErr{duplicate(sc + "[1].spreadByField"), duplicate(sc + "[2].spreadByField")},
		},
	}
	placementCases := make([]placementCase, 0, len(cases))
	for _, tc := range cases {
		placementCases = append(placementCases, placementCase{
			name: tc.name, placement: policyv1alpha1.Placement{SpreadConstraints: tc.constraints}, want: tc.want,
		})
	}
	runPlacementCases(t, placementCases)
}
