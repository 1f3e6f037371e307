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

package placement_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/placement"
	"github.com/mco-org/mco/pkg/testing/builders"
)

func fieldAffinity(key string, op corev1.NodeSelectorOperator, values ...string) *policyv1alpha1.ClusterAffinity {
	return &policyv1alpha1.ClusterAffinity{FieldSelector: &policyv1alpha1.FieldSelector{
		MatchExpressions: []corev1.NodeSelectorRequirement{{Key: key, Operator: op, Values: values}},
	}}
}

func TestClusterMatches(t *testing.T) {
	t.Parallel()
	const (
		in    = corev1.NodeSelectorOpIn
		notIn = corev1.NodeSelectorOpNotIn
	)
	aws := builders.NewCluster("m1").WithLabel("env", "prod").WithProvider("aws").WithRegion("eu-west-1").WithZones("eu-west-1a").Build()
	multi := builders.NewCluster("m2").WithProvider("gcp").WithRegion("us-east1").WithZones("us-east1-b", "us-east1-c").Build()
	bare := builders.NewCluster("m3").Build()
	legacy := builders.NewCluster("m4").WithDeprecatedZone("old-zone").Build()
	many := make([]string, 20)
	for i := range many {
		many[i] = "x" + string(rune('a'+i))
	}
	cases := []struct {
		name     string
		affinity *policyv1alpha1.ClusterAffinity
		cluster  string
		want     bool
	}{
		{name: "A nil affinity selects every cluster.", cluster: "bare", want: true},
		{name: "An empty affinity selects every cluster.", affinity: &policyv1alpha1.ClusterAffinity{}, cluster: "bare", want: true},
		{name: "Cluster names select a listed cluster.", affinity: &policyv1alpha1.ClusterAffinity{ClusterNames: []string{"m2", "m1"}}, cluster: "aws", want: true},
		{name: "Cluster names reject an unlisted cluster.", affinity: &policyv1alpha1.ClusterAffinity{ClusterNames: []string{"m2"}}, cluster: "aws", want: false},
		{name: "A long list of cluster names is looked up too.", affinity: &policyv1alpha1.ClusterAffinity{ClusterNames: append([]string{"m1"}, many...)}, cluster: "aws", want: true},
		{name: "A long list of cluster names still rejects an unlisted cluster.", affinity: &policyv1alpha1.ClusterAffinity{ClusterNames: many}, cluster: "aws", want: false},
		{name: "Exclude rejects a listed cluster even when it is also named.", affinity: &policyv1alpha1.ClusterAffinity{ClusterNames: []string{"m1"}, ExcludeClusters: []string{"m1"}}, cluster: "aws", want: false},
		{name: "Exclude alone keeps every other cluster.", affinity: &policyv1alpha1.ClusterAffinity{ExcludeClusters: []string{"m1"}}, cluster: "multi", want: true},
		{
			name:     "A label selector selects a cluster with the labels.",
			affinity: &policyv1alpha1.ClusterAffinity{LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}},
			cluster:  "aws", want: true,
		},
		{
			name:     "A label selector rejects a cluster without the labels.",
			affinity: &policyv1alpha1.ClusterAffinity{LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}},
			cluster:  "multi", want: false,
		},
		{
			name: "Names, labels and fields must all agree.",
			affinity: &policyv1alpha1.ClusterAffinity{
				ClusterNames: []string{"m1"}, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"env": "prod"}},
				FieldSelector: fieldAffinity("region", in, "us-east1").FieldSelector,
			},
			cluster: "aws", want: false,
		},
		{
			name:     "A malformed label selector selects nothing.",
			affinity: &policyv1alpha1.ClusterAffinity{LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "env", Operator: "Near"}}}},
			cluster:  "aws", want: false,
		},
		{name: "Provider In matches the provider.", affinity: fieldAffinity("provider", in, "aws", "azure"), cluster: "aws", want: true},
		{name: "Provider In rejects another provider.", affinity: fieldAffinity("provider", in, "azure"), cluster: "aws", want: false},
		{name: "Provider In rejects a cluster without provider.", affinity: fieldAffinity("provider", in, "aws"), cluster: "bare", want: false},
		{name: "Provider NotIn rejects a listed provider.", affinity: fieldAffinity("provider", notIn, "aws"), cluster: "aws", want: false},
		{name: "Provider NotIn accepts a cluster without provider.", affinity: fieldAffinity("provider", notIn, "aws"), cluster: "bare", want: true},
		{name: "Region In matches the region.", affinity: fieldAffinity("region", in, "eu-west-1"), cluster: "aws", want: true},
		{name: "Region NotIn accepts another region.", affinity: fieldAffinity("region", notIn, "eu-west-1"), cluster: "multi", want: true},
		{name: "Zone In matches a multi-zone cluster whose zones are all listed.", affinity: fieldAffinity("zone", in, "us-east1-c", "us-east1-b"), cluster: "multi", want: true},
		{name: "Zone In rejects a multi-zone cluster with an unlisted zone.", affinity: fieldAffinity("zone", in, "us-east1-b"), cluster: "multi", want: false},
		{name: "Zone In rejects a cluster without zones.", affinity: fieldAffinity("zone", in, "eu-west-1a"), cluster: "bare", want: false},
		{name: "Zone NotIn rejects a multi-zone cluster with any listed zone.", affinity: fieldAffinity("zone", notIn, "us-east1-c"), cluster: "multi", want: false},
		{name: "Zone NotIn accepts a cluster without zones.", affinity: fieldAffinity("zone", notIn, "eu-west-1a"), cluster: "bare", want: true},
		{name: "Zone In falls back to the deprecated zone field.", affinity: fieldAffinity("zone", in, "old-zone"), cluster: "legacy", want: true},
		{name: "Zone NotIn falls back to the deprecated zone field.", affinity: fieldAffinity("zone", notIn, "old-zone"), cluster: "legacy", want: false},
		{name: "An unsupported operator selects nothing.", affinity: fieldAffinity("region", corev1.NodeSelectorOpDoesNotExist), cluster: "bare", want: false},
		{name: "Provider In without values selects nothing.", affinity: fieldAffinity("provider", in), cluster: "aws", want: false},
		{name: "Region NotIn without values selects nothing, as in Karmada.", affinity: fieldAffinity("region", notIn), cluster: "bare", want: false},
		{name: "Zone In without values selects nothing.", affinity: fieldAffinity("zone", in), cluster: "multi", want: false},
		{name: "Zone NotIn without values selects every cluster, as in Karmada.", affinity: fieldAffinity("zone", notIn), cluster: "multi", want: true},
	}
	clusters := map[string]*clusterv1alpha1.Cluster{"aws": aws, "multi": multi, "bare": bare, "legacy": legacy}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := placement.ClusterMatches(clusters[tt.cluster], tt.affinity); got != tt.want {
				t.Errorf("ClusterMatches = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestCompileAffinityErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		affinity *policyv1alpha1.ClusterAffinity
		wantErr  string
	}{
		{
			name:     "A malformed label selector names the label selector.",
			affinity: &policyv1alpha1.ClusterAffinity{LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "env", Operator: "Near"}}}},
			wantErr:  `labelSelector: "Near" is not a valid label selector operator`,
		},
		{name: "An unknown field key is refused.", affinity: fieldAffinity("color", corev1.NodeSelectorOpIn, "blue"), wantErr: `fieldSelector.matchExpressions[0]: unsupported key "color"`},
		{name: "Exists is refused, as validation does.", affinity: fieldAffinity("zone", corev1.NodeSelectorOpExists), wantErr: `fieldSelector.matchExpressions[0]: unsupported operator "Exists"`},
		{name: "Gt is refused.", affinity: fieldAffinity("region", corev1.NodeSelectorOpGt, "1"), wantErr: `fieldSelector.matchExpressions[0]: unsupported operator "Gt"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := placement.CompileAffinity(tt.affinity)
			if got := errString(err); got != tt.wantErr {
				t.Errorf("CompileAffinity error = %q, want %q", got, tt.wantErr)
			}
		})
	}
}
