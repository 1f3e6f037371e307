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

package overridemanager_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/clustervalues"
	"github.com/mco-org/mco/pkg/overridemanager"
	"github.com/mco-org/mco/pkg/testing/builders"
)

const settings = `
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: default}
data: {region: unset}`

func TestApplyClusterValues(t *testing.T) {
	t.Parallel()
	rule := everywhere(policyv1alpha1.Overriders{Plaintext: []policyv1alpha1.PlaintextOverrider{{
		Path: "/data/region", Operator: policyv1alpha1.OverriderOpReplace, Value: raw(`"${cluster.region}/${cluster.labels['mirror']}"`),
	}}})
	annotated := cop("values", nil, rule)
	annotated.Annotations = map[string]string{clustervalues.Annotation: "true"}
	withRegion := func(c *clusterv1alpha1.Cluster) *clusterv1alpha1.Cluster { c.Spec.Region = "eu-west"; return c }
	tests := []struct {
		name    string
		policy  *policyv1alpha1.ClusterOverridePolicy
		cluster *clusterv1alpha1.Cluster
		want    string
		wantErr string
	}{
		{name: "substituted per cluster", policy: annotated,
			cluster: withRegion(builders.NewCluster("member1").WithLabel("mirror", "m1.example").Build()), want: "eu-west/m1.example"},
		{name: "another cluster, its own values", policy: annotated,
			cluster: withRegion(builders.NewCluster("member3").WithLabel("mirror", "m3.example").Build()), want: "eu-west/m3.example"},
		{name: "literal without the annotation", policy: cop("values", nil, rule),
			cluster: withRegion(builders.NewCluster("member1").WithLabel("mirror", "m1.example").Build()),
			want:    "${cluster.region}/${cluster.labels['mirror']}"},
		{name: "a missing label fails the cluster, naming policy, rule and value", policy: annotated,
			cluster: withRegion(builders.NewCluster("member2").Build()),
			wantErr: `clusteroverridepolicy values rule 0: plaintext[0].value: ${cluster.labels['mirror']}: cluster member2 has no label "mirror"`},
		{name: "an empty region fails too", policy: annotated,
			cluster: builders.NewCluster("member2").WithLabel("mirror", "m2.example").Build(),
			wantErr: `clusteroverridepolicy values rule 0: plaintext[0].value: ${cluster.region}: cluster member2 has an empty spec.region`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			obj := manifest(t, settings)
			applied, err := overridemanager.Apply(obj, tt.cluster, overridemanager.Policies{
				Cluster: []*policyv1alpha1.ClusterOverridePolicy{tt.policy}})
			if gotErr := errText(err); gotErr != tt.wantErr {
				t.Fatalf("Apply error = %q, want %q", gotErr, tt.wantErr)
			}
			if err != nil {
				if got := obj.Object["data"].(map[string]any)["region"]; got != "unset" {
					t.Errorf("data.region = %v after an error, want it untouched", got)
				}
				return
			}
			if got := obj.Object["data"].(map[string]any)["region"]; got != tt.want {
				t.Errorf("data.region = %v, want %q", got, tt.want)
			}
			// What is recorded as applied is what was applied.
			if diff := cmp.Diff(`"`+tt.want+`"`, string(applied[0].Overriders[0].Plaintext[0].Value.Raw)); diff != "" {
				t.Errorf("applied value (-want +got):\n%s", diff)
			}
			if got := string(rule.Overriders.Plaintext[0].Value.Raw); got != `"${cluster.region}/${cluster.labels['mirror']}"` {
				t.Errorf("the policy's own value changed to %s", got)
			}
		})
	}
}
