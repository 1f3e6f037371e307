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
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/scheduler/framework"
	"github.com/mco-org/mco/pkg/scheduler/plugins"
	"github.com/mco-org/mco/pkg/testing/builders"
)

const mismatch = "cluster(s) did not match the placement cluster affinity"

func TestClusterAffinityNamesAndLabels(t *testing.T) {
	t.Parallel()
	prod := builders.NewCluster("m1").WithLabel("env", "prod").WithLabel("tier", "gold")
	tests := []struct {
		name    string
		binding *builders.BindingBuilder
		cluster *builders.ClusterBuilder
		want    string
	}{
		{name: "A binding without placement accepts every cluster.", binding: builders.NewBinding("w").WithoutPlacement(), cluster: prod, want: feasible},
		{name: "A placement without affinity accepts every cluster.", binding: builders.NewBinding("w"), cluster: prod, want: feasible},
		{name: "A listed cluster name is accepted.", binding: builders.NewBinding("w").WithClusterNames("m0", "m1"), cluster: prod, want: feasible},
		{name: "An unlisted cluster name is rejected.", binding: builders.NewBinding("w").WithClusterNames("m0", "m2"), cluster: prod, want: mismatch},
		{name: "An excluded cluster is rejected.", binding: builders.NewBinding("w").WithExclude("m1"), cluster: prod, want: mismatch},
		{name: "Exclusion wins over a listed name.", binding: builders.NewBinding("w").WithClusterNames("m1").WithExclude("m1"), cluster: prod, want: mismatch},
		{name: "Matching labels are accepted.", binding: builders.NewBinding("w").WithLabelSelector(map[string]string{"env": "prod"}), cluster: prod, want: feasible},
		{name: "Different labels are rejected.", binding: builders.NewBinding("w").WithLabelSelector(map[string]string{"env": "dev"}), cluster: prod, want: mismatch},
		{
			name: "Label expressions are honoured.",
			binding: builders.NewBinding("w").WithClusterAffinity(&policyv1alpha1.ClusterAffinity{LabelSelector: &metav1.LabelSelector{
				MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"gold"}}},
			}}),
			cluster: prod,
			want:    mismatch,
		},
		{
			name:    "Labels, names and fields must all agree.",
			binding: builders.NewBinding("w").WithLabelSelector(map[string]string{"env": "prod"}).WithClusterNames("m1").WithFieldSelector("region", corev1.NodeSelectorOpIn, "eu"),
			cluster: prod,
			want:    mismatch,
		},
		{
			name: "A malformed label selector is an error, not a silent mismatch.",
			binding: builders.NewBinding("w").WithClusterAffinity(&policyv1alpha1.ClusterAffinity{LabelSelector: &metav1.LabelSelector{
				MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "env", Operator: "Near"}},
			}}),
			cluster: prod,
			want:    `error: cluster affinity: labelSelector: "Near" is not a valid label selector operator`,
		},
	}
	p := mustNew(t, plugins.NewClusterAffinity)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := verdict(t, p, nil, tt.binding.Build(), tt.cluster.Build()); got != tt.want {
				t.Errorf("verdict = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestClusterAffinityFieldSelector(t *testing.T) {
	t.Parallel()
	const (
		in    = corev1.NodeSelectorOpIn
		notIn = corev1.NodeSelectorOpNotIn
	)
	aws := builders.NewCluster("m1").WithProvider("aws").WithRegion("eu-west-1").WithZones("eu-west-1a")
	multi := builders.NewCluster("m2").WithProvider("gcp").WithRegion("us-east1").WithZones("us-east1-b", "us-east1-c")
	bare := builders.NewCluster("m3")
	legacy := builders.NewCluster("m4").WithDeprecatedZone("old-zone")
	tests := []struct {
		name     string
		selector func(*builders.BindingBuilder) *builders.BindingBuilder
		cluster  *builders.ClusterBuilder
		want     string
	}{
		{name: "Provider In matches the provider.", selector: field("provider", in, "aws", "azure"), cluster: aws, want: feasible},
		{name: "Provider In rejects another provider.", selector: field("provider", in, "azure"), cluster: aws, want: mismatch},
		{name: "Provider In rejects a cluster without provider.", selector: field("provider", in, "aws"), cluster: bare, want: mismatch},
		{name: "Provider NotIn rejects a listed provider.", selector: field("provider", notIn, "aws"), cluster: aws, want: mismatch},
		{name: "Provider NotIn accepts a cluster without provider.", selector: field("provider", notIn, "aws"), cluster: bare, want: feasible},
		{name: "Region In matches the region.", selector: field("region", in, "eu-west-1"), cluster: aws, want: feasible},
		{name: "Region NotIn rejects a listed region.", selector: field("region", notIn, "eu-west-1"), cluster: aws, want: mismatch},
		{name: "Region NotIn accepts another region.", selector: field("region", notIn, "eu-west-1"), cluster: multi, want: feasible},
		{name: "Zone In matches a single-zone cluster.", selector: field("zone", in, "eu-west-1a", "x"), cluster: aws, want: feasible},
		{name: "Zone In matches a multi-zone cluster whose zones are all listed.", selector: field("zone", in, "us-east1-c", "us-east1-b"), cluster: multi, want: feasible},
		{name: "Zone In rejects a multi-zone cluster with an unlisted zone.", selector: field("zone", in, "us-east1-b"), cluster: multi, want: mismatch},
		{name: "Zone In rejects a cluster without zones.", selector: field("zone", in, "eu-west-1a"), cluster: bare, want: mismatch},
		{name: "Zone NotIn rejects a multi-zone cluster with any listed zone.", selector: field("zone", notIn, "us-east1-c"), cluster: multi, want: mismatch},
		{name: "Zone NotIn accepts a multi-zone cluster with no listed zone.", selector: field("zone", notIn, "eu-west-1a"), cluster: multi, want: feasible},
		{name: "Zone NotIn accepts a cluster without zones.", selector: field("zone", notIn, "eu-west-1a"), cluster: bare, want: feasible},
		{name: "Zone In falls back to the deprecated zone field.", selector: field("zone", in, "old-zone"), cluster: legacy, want: feasible},
		{name: "Zone NotIn falls back to the deprecated zone field.", selector: field("zone", notIn, "old-zone"), cluster: legacy, want: mismatch},
		{
			name: "Exists is an error, as validation refuses it.", selector: field("zone", corev1.NodeSelectorOpExists), cluster: bare,
			want: `error: cluster affinity: fieldSelector.matchExpressions[0]: unsupported operator "Exists"`,
		},
		{
			name: "DoesNotExist is an error, as validation refuses it.", selector: field("region", corev1.NodeSelectorOpDoesNotExist), cluster: bare,
			want: `error: cluster affinity: fieldSelector.matchExpressions[0]: unsupported operator "DoesNotExist"`,
		},
		{name: "Region In without values matches nothing.", selector: field("region", in), cluster: aws, want: mismatch},
		{name: "Region NotIn without values matches nothing, as in Karmada.", selector: field("region", notIn), cluster: bare, want: mismatch},
		{name: "Zone NotIn without values matches every cluster, as in Karmada.", selector: field("zone", notIn), cluster: multi, want: feasible},
		{
			name: "All expressions must match.",
			selector: func(b *builders.BindingBuilder) *builders.BindingBuilder {
				return b.WithFieldSelector("provider", in, "gcp").WithFieldSelector("zone", notIn, "us-east1-b")
			},
			cluster: multi,
			want:    mismatch,
		},
		{name: "An unsupported field is an error.", selector: field("color", in, "blue"), cluster: aws, want: `error: cluster affinity: fieldSelector.matchExpressions[0]: unsupported key "color"`},
		{name: "An unsupported operator is an error.", selector: field("region", corev1.NodeSelectorOpGt, "1"), cluster: aws, want: `error: cluster affinity: fieldSelector.matchExpressions[0]: unsupported operator "Gt"`},
	}
	p := mustNew(t, plugins.NewClusterAffinity)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := verdict(t, p, nil, tt.selector(builders.NewBinding("w")).Build(), tt.cluster.Build()); got != tt.want {
				t.Errorf("verdict = %q, want %q", got, tt.want)
			}
		})
	}
}

func field(key string, op corev1.NodeSelectorOperator, values ...string) func(*builders.BindingBuilder) *builders.BindingBuilder {
	return func(b *builders.BindingBuilder) *builders.BindingBuilder {
		return b.WithFieldSelector(key, op, values...)
	}
}

func TestClusterAffinityInForce(t *testing.T) {
	t.Parallel()
	terms := []policyv1alpha1.ClusterAffinityTerm{
		{AffinityName: "primary", ClusterAffinity: policyv1alpha1.ClusterAffinity{ClusterNames: []string{"m1"}}},
		{AffinityName: "backup", ClusterAffinity: policyv1alpha1.ClusterAffinity{ClusterNames: []string{"m2"}}},
	}
	withState := func(a *policyv1alpha1.ClusterAffinity) *framework.CycleState {
		s := framework.NewCycleState()
		s.SetClusterAffinity(a)
		return s
	}
	tests := []struct {
		name    string
		binding *builders.BindingBuilder
		state   *framework.CycleState
		cluster string
		want    string
	}{
		{
			name:    "The affinity set on the cycle state wins over the placement.",
			binding: builders.NewBinding("w").WithClusterNames("m1"),
			state:   withState(&terms[1].ClusterAffinity),
			cluster: "m2",
			want:    feasible,
		},
		{
			name:    "A nil affinity set on the cycle state accepts every cluster.",
			binding: builders.NewBinding("w").WithClusterNames("m1"),
			state:   withState(nil),
			cluster: "m9",
			want:    feasible,
		},
		{
			name:    "Without a state affinity the term named in the status is used.",
			binding: builders.NewBinding("w").WithClusterAffinities(terms...).WithObservedAffinity("backup"),
			cluster: "m1",
			want:    mismatch,
		},
		{
			name:    "Without a state affinity or a known observed term the first term is used.",
			binding: builders.NewBinding("w").WithClusterAffinities(terms...).WithObservedAffinity("gone"),
			cluster: "m1",
			want:    feasible,
		},
	}
	p := mustNew(t, plugins.NewClusterAffinity)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := verdict(t, p, tt.state, tt.binding.Build(), builders.NewCluster(tt.cluster).Build()); got != tt.want {
				t.Errorf("verdict = %q, want %q", got, tt.want)
			}
		})
	}
}
