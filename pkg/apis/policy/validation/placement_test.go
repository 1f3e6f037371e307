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
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

const pl = "spec.placement"

func names(clusters ...string) policyv1alpha1.ClusterAffinity {
	return policyv1alpha1.ClusterAffinity{ClusterNames: clusters}
}

func fieldExpr(key string, op corev1.NodeSelectorOperator, values ...string) corev1.NodeSelectorRequirement {
	return corev1.NodeSelectorRequirement{Key: key, Operator: op, Values: values}
}

func dynamicDivided() *policyv1alpha1.ReplicaSchedulingStrategy {
	return &policyv1alpha1.ReplicaSchedulingStrategy{
		ReplicaSchedulingType:     policyv1alpha1.ReplicaSchedulingTypeDivided,
		ReplicaDivisionPreference: policyv1alpha1.ReplicaDivisionPreferenceWeighted,
		WeightPreference:          &policyv1alpha1.ClusterPreferences{DynamicWeight: policyv1alpha1.DynamicWeightByAvailableReplicas},
	}
}

func overflowTerm() policyv1alpha1.ClusterAffinityTerm {
	return policyv1alpha1.ClusterAffinityTerm{
		AffinityName:    "primary",
		ClusterAffinity: names("member1"),
		OverflowAffinities: []policyv1alpha1.OverflowClusterAffinity{
			{AffinityName: "burst", ClusterAffinity: names("member2")},
		},
	}
}

func TestValidatePlacementAffinity(t *testing.T) {
	t.Parallel()
	runPlacementCases(t, []placementCase{
		{
			name:      "An empty placement is valid.",
			placement: policyv1alpha1.Placement{},
		},
		{
			name: "A cluster affinity with provider, region and zone field expressions is valid.",
			placement: policyv1alpha1.Placement{ClusterAffinity: &policyv1alpha1.ClusterAffinity{
				FieldSelector: &policyv1alpha1.FieldSelector{MatchExpressions: []corev1.NodeSelectorRequirement{
					fieldExpr("provider", corev1.NodeSelectorOpIn, "aws"),
					fieldExpr("region", corev1.NodeSelectorOpNotIn, "us-east-1"),
					fieldExpr("zone", corev1.NodeSelectorOpIn, "a", "b"),
				}},
				LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"env": "prod"}},
			}},
		},
		{
			name: "A field selector with an unknown key and an unsupported operator gets two errors.",
			placement: policyv1alpha1.Placement{ClusterAffinity: &policyv1alpha1.ClusterAffinity{
				FieldSelector: &policyv1alpha1.FieldSelector{MatchExpressions: []corev1.NodeSelectorRequirement{
					fieldExpr("provider", corev1.NodeSelectorOpIn, "aws"),
					fieldExpr("name", corev1.NodeSelectorOpExists),
				}},
			}},
			want: []fieldErr{
				notSupported(pl + ".clusterAffinity.fieldSelector.matchExpressions[1].key"),
				notSupported(pl + ".clusterAffinity.fieldSelector.matchExpressions[1].operator"),
			},
		},
		{
			name: "Field expressions with Exists, DoesNotExist, Gt or Lt are rejected, as Karmada allows only In and NotIn.",
			placement: policyv1alpha1.Placement{ClusterAffinity: &policyv1alpha1.ClusterAffinity{
				FieldSelector: &policyv1alpha1.FieldSelector{MatchExpressions: []corev1.NodeSelectorRequirement{
					fieldExpr("zone", corev1.NodeSelectorOpExists, "a"),
					fieldExpr("provider", corev1.NodeSelectorOpDoesNotExist, "aws"),
					fieldExpr("region", corev1.NodeSelectorOpGt, "1"),
					fieldExpr("region", corev1.NodeSelectorOpLt, "1"),
				}},
			}},
			want: []fieldErr{
				notSupported(pl + ".clusterAffinity.fieldSelector.matchExpressions[0].operator"),
				notSupported(pl + ".clusterAffinity.fieldSelector.matchExpressions[1].operator"),
				notSupported(pl + ".clusterAffinity.fieldSelector.matchExpressions[2].operator"),
				notSupported(pl + ".clusterAffinity.fieldSelector.matchExpressions[3].operator"),
			},
		},
		{
			name: "A cluster affinity with an invalid label selector is rejected.",
			placement: policyv1alpha1.Placement{ClusterAffinity: &policyv1alpha1.ClusterAffinity{
				LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
					{Key: "env", Operator: "Like", Values: []string{"prod"}},
				}},
			}},
			want: []fieldErr{invalid(pl + ".clusterAffinity.labelSelector.matchExpressions[0].operator")},
		},
		{
			name: "Cluster affinity and cluster affinities together are rejected.",
			placement: policyv1alpha1.Placement{
				ClusterAffinity:   &policyv1alpha1.ClusterAffinity{ClusterNames: []string{"member1"}},
				ClusterAffinities: []policyv1alpha1.ClusterAffinityTerm{{AffinityName: "group1", ClusterAffinity: names("member1")}},
			},
			want: []fieldErr{forbidden(pl + ".clusterAffinities")},
		},
		{
			name: "Two uniquely named cluster groups are valid.",
			placement: policyv1alpha1.Placement{ClusterAffinities: []policyv1alpha1.ClusterAffinityTerm{
				{AffinityName: "primary", ClusterAffinity: names("member1")},
				{AffinityName: "backup", ClusterAffinity: names("member2")},
			}},
		},
		{
			name: "Cluster groups without a name, with a repeated name or with a too long name are rejected.",
			placement: policyv1alpha1.Placement{ClusterAffinities: []policyv1alpha1.ClusterAffinityTerm{
				{AffinityName: "group1"},
				{AffinityName: "group1"},
				{},
				{AffinityName: strings.Repeat("g", 33)},
				{AffinityName: "bad name"},
			}},
			want: []fieldErr{
				duplicate(pl + ".clusterAffinities[1].affinityName"),
				required(pl + ".clusterAffinities[2].affinityName"),
				tooLong(pl + ".clusterAffinities[3].affinityName"),
				invalid(pl + ".clusterAffinities[4].affinityName"),
			},
		},
		{
			name: "A cluster group's inline field selector is checked under the term's own path.",
			placement: policyv1alpha1.Placement{ClusterAffinities: []policyv1alpha1.ClusterAffinityTerm{{
				AffinityName: "group1",
				ClusterAffinity: policyv1alpha1.ClusterAffinity{FieldSelector: &policyv1alpha1.FieldSelector{
					MatchExpressions: []corev1.NodeSelectorRequirement{fieldExpr("city", corev1.NodeSelectorOpIn, "paris")},
				}},
			}}},
			want: []fieldErr{notSupported(pl + ".clusterAffinities[0].fieldSelector.matchExpressions[0].key")},
		},
		{
			name: "Overflow groups with dynamic weight division are valid.",
			placement: policyv1alpha1.Placement{
				ClusterAffinities: []policyv1alpha1.ClusterAffinityTerm{overflowTerm()},
				ReplicaScheduling: dynamicDivided(),
			},
		},
		{
			name: "Overflow groups with aggregated division are valid.",
			placement: policyv1alpha1.Placement{
				ClusterAffinities: []policyv1alpha1.ClusterAffinityTerm{overflowTerm()},
				ReplicaScheduling: &policyv1alpha1.ReplicaSchedulingStrategy{
					ReplicaSchedulingType:     policyv1alpha1.ReplicaSchedulingTypeDivided,
					ReplicaDivisionPreference: policyv1alpha1.ReplicaDivisionPreferenceAggregated,
				},
			},
		},
		{
			name: "Overflow groups without replica scheduling are rejected.",
			placement: policyv1alpha1.Placement{
				ClusterAffinities: []policyv1alpha1.ClusterAffinityTerm{overflowTerm()},
			},
			want: []fieldErr{forbidden(pl + ".clusterAffinities[0].overflowAffinities")},
		},
		{
			name: "Overflow groups with static weights are rejected.",
			placement: policyv1alpha1.Placement{
				ClusterAffinities: []policyv1alpha1.ClusterAffinityTerm{overflowTerm()},
				ReplicaScheduling: &policyv1alpha1.ReplicaSchedulingStrategy{
					ReplicaSchedulingType:     policyv1alpha1.ReplicaSchedulingTypeDivided,
					ReplicaDivisionPreference: policyv1alpha1.ReplicaDivisionPreferenceWeighted,
					WeightPreference: &policyv1alpha1.ClusterPreferences{StaticWeightList: []policyv1alpha1.StaticClusterWeight{
						{TargetCluster: names("member1"), Weight: 1},
					}},
				},
			},
			want: []fieldErr{forbidden(pl + ".clusterAffinities[0].overflowAffinities")},
		},
		{
			name: "Overflow groups with duplicated replicas are rejected.",
			placement: policyv1alpha1.Placement{
				ClusterAffinities: []policyv1alpha1.ClusterAffinityTerm{overflowTerm()},
				ReplicaScheduling: &policyv1alpha1.ReplicaSchedulingStrategy{ReplicaSchedulingType: policyv1alpha1.ReplicaSchedulingTypeDuplicated},
			},
			want: []fieldErr{forbidden(pl + ".clusterAffinities[0].overflowAffinities")},
		},
		{
			name: "Overflow groups on a term without its own filter, with clashing names, are rejected.",
			placement: policyv1alpha1.Placement{
				ClusterAffinities: []policyv1alpha1.ClusterAffinityTerm{{
					AffinityName: "primary",
					OverflowAffinities: []policyv1alpha1.OverflowClusterAffinity{
						{AffinityName: "primary", ClusterAffinity: names("member2")},
						{AffinityName: "burst", ClusterAffinity: names("member3")},
						{AffinityName: "burst", ClusterAffinity: names("member4")},
						{ClusterAffinity: names("member5")},
					},
				}},
				ReplicaScheduling: dynamicDivided(),
			},
			want: []fieldErr{
				required(pl + ".clusterAffinities[0]"),
				duplicate(pl + ".clusterAffinities[0].overflowAffinities[0].affinityName"),
				duplicate(pl + ".clusterAffinities[0].overflowAffinities[2].affinityName"),
				required(pl + ".clusterAffinities[0].overflowAffinities[3].affinityName"),
			},
		},
		{
			name: "An overflow group's field selector is checked.",
			placement: policyv1alpha1.Placement{
				ClusterAffinities: []policyv1alpha1.ClusterAffinityTerm{{
					AffinityName:    "primary",
					ClusterAffinity: names("member1"),
					OverflowAffinities: []policyv1alpha1.OverflowClusterAffinity{{
						AffinityName: "burst",
						ClusterAffinity: policyv1alpha1.ClusterAffinity{FieldSelector: &policyv1alpha1.FieldSelector{
							MatchExpressions: []corev1.NodeSelectorRequirement{fieldExpr("region", corev1.NodeSelectorOpGt, "1")},
						}},
					}},
				}},
				ReplicaScheduling: dynamicDivided(),
			},
			want: []fieldErr{notSupported(pl + ".clusterAffinities[0].overflowAffinities[0].fieldSelector.matchExpressions[0].operator")},
		},
	})
}

func TestValidatePlacementWorkloadAffinity(t *testing.T) {
	t.Parallel()
	runPlacementCases(t, []placementCase{
		{
			name: "Workload affinity and anti-affinity on different keys are valid.",
			placement: policyv1alpha1.Placement{WorkloadAffinity: &policyv1alpha1.WorkloadAffinity{
				Affinity:     &policyv1alpha1.WorkloadAffinityTerm{GroupByLabelKey: "app.example.com/group"},
				AntiAffinity: &policyv1alpha1.WorkloadAntiAffinityTerm{GroupByLabelKey: "app.example.com/tenant"},
			}},
		},
		{
			name: "Workload affinity and anti-affinity on the same key are rejected.",
			placement: policyv1alpha1.Placement{WorkloadAffinity: &policyv1alpha1.WorkloadAffinity{
				Affinity:     &policyv1alpha1.WorkloadAffinityTerm{GroupByLabelKey: "group"},
				AntiAffinity: &policyv1alpha1.WorkloadAntiAffinityTerm{GroupByLabelKey: "group"},
			}},
			want: []fieldErr{invalid(pl + ".workloadAffinity.antiAffinity.groupByLabelKey")},
		},
		{
			name: "Workload affinity keys that are empty or not label keys are rejected.",
			placement: policyv1alpha1.Placement{WorkloadAffinity: &policyv1alpha1.WorkloadAffinity{
				Affinity:     &policyv1alpha1.WorkloadAffinityTerm{},
				AntiAffinity: &policyv1alpha1.WorkloadAntiAffinityTerm{GroupByLabelKey: "INVALID KEY!"},
			}},
			want: []fieldErr{
				required(pl + ".workloadAffinity.affinity.groupByLabelKey"),
				invalid(pl + ".workloadAffinity.antiAffinity.groupByLabelKey"),
			},
		},
	})
}

type placementCase struct {
	name      string
	placement policyv1alpha1.Placement
	want      []fieldErr
}

func runPlacementCases(t *testing.T, cases []placementCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			expectErrors(t, ValidatePlacement(&tc.placement, field.NewPath("spec", "placement")), tc.want)
		})
	}
}
