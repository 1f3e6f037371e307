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

package clustervalues

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

func testCluster() *clusterv1alpha1.Cluster {
	return &clusterv1alpha1.Cluster{
		ObjectMeta: metav1.ObjectMeta{Name: "member1", Labels: map[string]string{
			"mirror": "mirror.eu.example", "topology.kubernetes.io/zone": "eu-1a", "empty": ""}},
		Spec: clusterv1alpha1.ClusterSpec{Region: "eu-west", Provider: "acme"},
	}
}

func TestExpand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want, wantErr string
	}{
		{name: "literal", in: "plain text", want: "plain text"},
		{name: "name", in: "${cluster.name}", want: "member1"},
		{name: "region inside text", in: "sc-${cluster.region}-fast", want: "sc-eu-west-fast"},
		{name: "provider", in: "${cluster.provider}", want: "acme"},
		{name: "label single quotes", in: "${cluster.labels['mirror']}/library", want: "mirror.eu.example/library"},
		{name: "label double quotes", in: `${cluster.labels["topology.kubernetes.io/zone"]}`, want: "eu-1a"},
		{name: "several", in: "${cluster.name}.${cluster.region}", want: "member1.eu-west"},
		{name: "escaped", in: "$${cluster.name} costs $5", want: "${cluster.name} costs $5"},
		{name: "lone dollar", in: "a$b$", want: "a$b$"},
		{name: "missing label", in: "${cluster.labels['gpu']}",
			wantErr: `${cluster.labels['gpu']}: cluster member1 has no label "gpu"`},
		{name: "empty label", in: "${cluster.labels['empty']}",
			wantErr: `${cluster.labels['empty']}: cluster member1 has an empty label "empty"`},
		{name: "unknown", in: "${cluster.owner}",
			wantErr: "unknown placeholder ${cluster.owner}: the known ones are " + known},
		{name: "zone", in: "${cluster.zone}",
			wantErr: "unknown placeholder ${cluster.zone}: a cluster may span several zones; use ${cluster.labels['topology.kubernetes.io/zone']}"},
		{name: "unterminated", in: "x${cluster.name", wantErr: `"${cluster.name" has no closing }`},
		{name: "bad label key", in: "${cluster.labels['-bad']}", wantErr: `placeholder ${cluster.labels['-bad']}: label key "-bad": ` +
			`name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ` +
			`(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`},
		{name: "unquoted key", in: "${cluster.labels[mirror]}", wantErr: "unknown placeholder ${cluster.labels[mirror]}: the known ones are " + known},
		{name: "mixed quotes", in: `${cluster.labels['mirror"]}`, wantErr: `unknown placeholder ${cluster.labels['mirror"]}: the known ones are ` + known},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Expand(tt.in, testCluster())
			if gotErr := errText(err); gotErr != tt.wantErr {
				t.Fatalf("Expand(%q) error = %q, want %q", tt.in, gotErr, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("Expand(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestCheckAndStandIn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, standIn string
		ok          bool
	}{
		{in: "v-${cluster.region}", standIn: "v-x", ok: true},
		{in: "${cluster.labels['a/b']}${cluster.name}", standIn: "xx", ok: true},
		{in: "no placeholder", standIn: "no placeholder", ok: true},
		{in: "${cluster.nope}", standIn: "x"},
		{in: "${", standIn: "x"},
	}
	for _, tt := range tests {
		if err := Check(tt.in); (err == nil) != tt.ok {
			t.Errorf("Check(%q) = %v, want ok=%v", tt.in, err, tt.ok)
		}
		if got := StandIn(tt.in); got != tt.standIn {
			t.Errorf("StandIn(%q) = %q, want %q", tt.in, got, tt.standIn)
		}
	}
}

func TestEnabled(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{"true": true, "false": false, "": false, "True": false} {
		if got := Enabled(map[string]string{Annotation: v}); got != want {
			t.Errorf("Enabled(%q) = %v, want %v", v, got, want)
		}
	}
	if Enabled(nil) {
		t.Error("Enabled(nil) = true")
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
