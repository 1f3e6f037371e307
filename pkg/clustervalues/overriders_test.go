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

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/util/validation/field"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

func raw(s string) policyv1alpha1.JSON { return policyv1alpha1.JSON{Raw: []byte(s)} }

func TestExpandOverriders(t *testing.T) {
	t.Parallel()
	add := policyv1alpha1.OverriderOpAdd
	tests := []struct {
		name    string
		in      policyv1alpha1.Overriders
		want    policyv1alpha1.Overriders
		wantErr string
	}{{
		name: "every kind of value",
		in: policyv1alpha1.Overriders{
			Plaintext: []policyv1alpha1.PlaintextOverrider{{Path: "/data/region", Operator: add,
				Value: raw(`{"r":"${cluster.region}","n":[1,"${cluster.name}"],"html":"<a&b>"}`)}},
			ImageOverrider: []policyv1alpha1.ImageOverrider{{Component: policyv1alpha1.Registry, Operator: "replace",
				Value: "${cluster.labels['mirror']}"}},
			CommandOverrider: []policyv1alpha1.CommandArgsOverrider{{ContainerName: "c", Operator: add, Value: []string{"--name=${cluster.name}"}}},
			ArgsOverrider:    []policyv1alpha1.CommandArgsOverrider{{ContainerName: "c", Operator: add, Value: []string{"--provider=${cluster.provider}"}}},
			LabelsOverrider: []policyv1alpha1.LabelAnnotationOverrider{{Operator: add,
				Value: map[string]string{"region": "${cluster.region}", "${cluster.name}": "key-untouched"}}},
			AnnotationsOverrider: []policyv1alpha1.LabelAnnotationOverrider{{Operator: add, Value: map[string]string{"zone": "in ${cluster.labels['topology.kubernetes.io/zone']}"}}},
			FieldOverrider: []policyv1alpha1.FieldOverrider{{FieldPath: "/data/cfg",
				JSON: []policyv1alpha1.JSONPatchOperation{{SubPath: "/endpoint", Operator: add, Value: raw(`"https://${cluster.name}.example"`)}},
				YAML: []policyv1alpha1.YAMLPatchOperation{{SubPath: "/n", Operator: add, Value: raw(`42`)}}}},
		},
		want: policyv1alpha1.Overriders{
			Plaintext: []policyv1alpha1.PlaintextOverrider{{Path: "/data/region", Operator: add,
				Value: raw(`{"html":"<a&b>","n":[1,"member1"],"r":"eu-west"}`)}},
			ImageOverrider: []policyv1alpha1.ImageOverrider{{Component: policyv1alpha1.Registry, Operator: "replace",
				Value: "mirror.eu.example"}},
			CommandOverrider: []policyv1alpha1.CommandArgsOverrider{{ContainerName: "c", Operator: add, Value: []string{"--name=member1"}}},
			ArgsOverrider:    []policyv1alpha1.CommandArgsOverrider{{ContainerName: "c", Operator: add, Value: []string{"--provider=acme"}}},
			LabelsOverrider: []policyv1alpha1.LabelAnnotationOverrider{{Operator: add,
				Value: map[string]string{"region": "eu-west", "${cluster.name}": "key-untouched"}}},
			AnnotationsOverrider: []policyv1alpha1.LabelAnnotationOverrider{{Operator: add, Value: map[string]string{"zone": "in eu-1a"}}},
			FieldOverrider: []policyv1alpha1.FieldOverrider{{FieldPath: "/data/cfg",
				JSON: []policyv1alpha1.JSONPatchOperation{{SubPath: "/endpoint", Operator: add, Value: raw(`"https://member1.example"`)}},
				YAML: []policyv1alpha1.YAMLPatchOperation{{SubPath: "/n", Operator: add, Value: raw(`42`)}}}},
		},
	}, {
		name: "missing label names the value",
		in: policyv1alpha1.Overriders{ImageOverrider: []policyv1alpha1.ImageOverrider{{Component: policyv1alpha1.Registry,
			Operator: "replace", Value: "${cluster.labels['gpu']}"}}},
		wantErr: `imageOverrider[0].value: ${cluster.labels['gpu']}: cluster member1 has no label "gpu"`,
	}, {
		name: "inside JSON",
		in: policyv1alpha1.Overriders{Plaintext: []policyv1alpha1.PlaintextOverrider{{Path: "/x", Operator: add,
			Value: raw(`{"a":{"b":["${cluster.labels['gpu']}"]}}`)}}},
		wantErr: `plaintext[0].value[a][b][0]: ${cluster.labels['gpu']}: cluster member1 has no label "gpu"`,
	}, {
		name: "label value that a cluster value makes invalid",
		in: policyv1alpha1.Overriders{LabelsOverrider: []policyv1alpha1.LabelAnnotationOverrider{{Operator: add,
			Value: map[string]string{"mirror": "${cluster.labels['mirror']}/x"}}}},
		wantErr: `labelsOverrider[0].value[mirror]: "mirror.eu.example/x", from "${cluster.labels['mirror']}/x", is not a valid label value: ` +
			`a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an ` +
			`alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			before := tt.in.DeepCopy()
			got, err := ExpandOverriders(&tt.in, testCluster())
			if gotErr := errText(err); gotErr != tt.wantErr {
				t.Fatalf("error = %q, want %q", gotErr, tt.wantErr)
			}
			if diff := cmp.Diff(before, &tt.in); diff != "" {
				t.Errorf("input changed (-before +after):\n%s", diff)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(&tt.want, got, cmp.Comparer(func(a, b policyv1alpha1.JSON) bool { return string(a.Raw) == string(b.Raw) })); diff != "" {
				t.Errorf("overriders (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	o := &policyv1alpha1.Overriders{
		ImageOverrider:  []policyv1alpha1.ImageOverrider{{Value: "${cluster.labels['mirror']}"}, {Value: "${cluster.zone}"}},
		FieldOverrider:  []policyv1alpha1.FieldOverrider{{JSON: []policyv1alpha1.JSONPatchOperation{{Value: raw(`{"k":"${oops}"}`)}}}},
		LabelsOverrider: []policyv1alpha1.LabelAnnotationOverrider{{Value: map[string]string{"a": "${cluster.region}"}}},
	}
	var got []string
	for _, e := range Validate(o, field.NewPath("spec", "overrideRules").Index(0).Child("overriders")) {
		got = append(got, e.Field)
	}
	want := []string{
		"spec.overrideRules[0].overriders.imageOverrider[1].value",
		"spec.overrideRules[0].overriders.fieldOverrider[0].json[0].value[k]",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
}
