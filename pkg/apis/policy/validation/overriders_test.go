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

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

const ov = "spec.overrideRules[0].overriders"

func TestValidateOverriders(t *testing.T) {
	t.Parallel()
	add, remove, replace := policyv1alpha1.OverriderOpAdd, policyv1alpha1.OverriderOpRemove, policyv1alpha1.OverriderOpReplace
	tests := []struct {
		name       string
		overriders policyv1alpha1.Overriders
		want       []fieldErr
	}{
		{
			name: "Plaintext add, replace and remove with the right values are valid.",
			overriders: policyv1alpha1.Overriders{Plaintext: []policyv1alpha1.PlaintextOverrider{
				{Path: "/metadata/labels/tier", Operator: add, Value: rawJSON(`"web"`)},
				{Path: "/spec/replicas", Operator: replace, Value: rawJSON("3")},
				{Path: "/spec/paused", Operator: remove},
			}},
		},
		{
			name: "Plaintext without a path, with a relative path or with an unknown operator is rejected.",
			overriders: policyv1alpha1.Overriders{Plaintext: []policyv1alpha1.PlaintextOverrider{
				{Operator: remove},
				{Path: "spec/replicas", Operator: remove},
				{Path: "/spec/replicas", Operator: "merge", Value: rawJSON("1")},
				{Path: "/spec/replicas"},
			}},
			want: []fieldErr{
				required(ov + ".plaintext[0].path"),
				invalid(ov + ".plaintext[1].path"),
				notSupported(ov + ".plaintext[2].operator"),
				required(ov + ".plaintext[3].operator"),
			},
		},
		{
			name: "Plaintext add and replace without a value and remove with one are valid, as in Karmada.",
			overriders: policyv1alpha1.Overriders{Plaintext: []policyv1alpha1.PlaintextOverrider{
				{Path: "/spec/replicas", Operator: add},
				{Path: "/spec/replicas", Operator: replace},
				{Path: "/spec/replicas", Operator: remove, Value: rawJSON("1")},
			}},
		},
		{
			name: "Image overriders on each component, with and without a predicate, are valid.",
			overriders: policyv1alpha1.Overriders{ImageOverrider: []policyv1alpha1.ImageOverrider{
				{Predicate: &policyv1alpha1.ImagePredicate{}, Component: policyv1alpha1.Tag, Operator: remove},
				{Component: policyv1alpha1.Registry, Operator: replace, Value: "registry.example.com"},
				{Component: policyv1alpha1.Repository, Operator: add, Value: "mirror"},
				{
					Predicate: &policyv1alpha1.ImagePredicate{Path: "/spec/template/spec/containers/0/image"},
					Component: policyv1alpha1.Tag, Operator: remove,
				},
			}},
		},
		{
			name: "Image overriders with a relative predicate path, bad components or operators are rejected.",
			overriders: policyv1alpha1.Overriders{ImageOverrider: []policyv1alpha1.ImageOverrider{
				{Predicate: &policyv1alpha1.ImagePredicate{Path: "spec/image"}, Component: "Digest", Operator: "merge"},
				{},
			}},
			want: []fieldErr{
				invalid(ov + ".imageOverrider[0].predicate.path"),
				notSupported(ov + ".imageOverrider[0].component"),
				notSupported(ov + ".imageOverrider[0].operator"),
				required(ov + ".imageOverrider[1].component"),
				required(ov + ".imageOverrider[1].operator"),
			},
		},
		{
			name: "Command and args overriders that add and remove are valid.",
			overriders: policyv1alpha1.Overriders{
				CommandOverrider: []policyv1alpha1.CommandArgsOverrider{{ContainerName: "nginx", Operator: add, Value: []string{"--debug"}}},
				ArgsOverrider:    []policyv1alpha1.CommandArgsOverrider{{ContainerName: "nginx", Operator: remove, Value: []string{"--quiet"}}},
			},
		},
		{
			name: "Command and args overriders without a container or with replace are rejected.",
			overriders: policyv1alpha1.Overriders{
				CommandOverrider: []policyv1alpha1.CommandArgsOverrider{{Operator: add}},
				ArgsOverrider:    []policyv1alpha1.CommandArgsOverrider{{ContainerName: "nginx", Operator: replace}},
			},
			want: []fieldErr{
				required(ov + ".commandOverrider[0].containerName"),
				notSupported(ov + ".argsOverrider[0].operator"),
			},
		},
		{
			name: "Label and annotation overriders with valid keys and values are valid.",
			overriders: policyv1alpha1.Overriders{
				LabelsOverrider:      []policyv1alpha1.LabelAnnotationOverrider{{Operator: add, Value: map[string]string{"example.com/tier": "web"}}},
				AnnotationsOverrider: []policyv1alpha1.LabelAnnotationOverrider{{Operator: replace, Value: map[string]string{"note": "any text at all"}}},
			},
		},
		{
			name: "Label overriders with bad keys, bad values or an unknown operator are rejected.",
			overriders: policyv1alpha1.Overriders{LabelsOverrider: []policyv1alpha1.LabelAnnotationOverrider{
				{Operator: add, Value: map[string]string{"testlabel~projectId": "x"}},
				{Operator: replace, Value: map[string]string{"tier": "not a label value"}},
				{Operator: "merge", Value: map[string]string{"tier": "web"}},
			}},
			want: []fieldErr{
				invalid(ov + ".labelsOverrider[0].value"),
				invalid(ov + ".labelsOverrider[1].value"),
				notSupported(ov + ".labelsOverrider[2].operator"),
			},
		},
		{
			name: "Annotation overriders with bad keys or without an operator are rejected.",
			overriders: policyv1alpha1.Overriders{AnnotationsOverrider: []policyv1alpha1.LabelAnnotationOverrider{
				{Operator: add, Value: map[string]string{"testannotation~projectId": "c-m-lfx9lk92p-v86cf"}},
				{Value: map[string]string{"note": "x"}},
			}},
			want: []fieldErr{
				invalid(ov + ".annotationsOverrider[0].value"),
				required(ov + ".annotationsOverrider[1].operator"),
			},
		},
		{
			name: "Field overriders with JSON or YAML edits, including one on the whole document, are valid.",
			overriders: policyv1alpha1.Overriders{FieldOverrider: []policyv1alpha1.FieldOverrider{
				{FieldPath: "/data/config.json", JSON: []policyv1alpha1.JSONPatchOperation{
					{SubPath: "/db/port", Operator: replace, Value: rawJSON("5432")},
					{SubPath: "/db/debug", Operator: remove},
				}},
				{FieldPath: "/data/config.yaml", YAML: []policyv1alpha1.YAMLPatchOperation{
					{SubPath: "", Operator: replace, Value: rawJSON(`{"db":{"port":5432}}`)},
				}},
			}},
		},
		{
			name: "Field overriders without a field path, or with neither or both edit lists, are rejected.",
			overriders: policyv1alpha1.Overriders{FieldOverrider: []policyv1alpha1.FieldOverrider{
				{JSON: []policyv1alpha1.JSONPatchOperation{{SubPath: "/a", Operator: remove}}},
				{FieldPath: "data/config"},
				{
					FieldPath: "/data/config",
					JSON:      []policyv1alpha1.JSONPatchOperation{{SubPath: "/a", Operator: remove}},
					YAML:      []policyv1alpha1.YAMLPatchOperation{{SubPath: "/a", Operator: remove}},
				},
			}},
			want: []fieldErr{
				required(ov + ".fieldOverrider[0].fieldPath"),
				invalid(ov + ".fieldOverrider[1].fieldPath"),
				required(ov + ".fieldOverrider[1]"),
				forbidden(ov + ".fieldOverrider[2].yaml"),
			},
		},
		{
			name: "Field overrider edits with relative sub paths, unknown operators or misplaced values are rejected.",
			overriders: policyv1alpha1.Overriders{FieldOverrider: []policyv1alpha1.FieldOverrider{
				{FieldPath: "/data/config.json", JSON: []policyv1alpha1.JSONPatchOperation{
					{SubPath: "db/port", Operator: replace, Value: rawJSON("1")},
					{SubPath: "/db/port", Operator: "move"},
					{SubPath: "/db/port", Operator: add},
					{SubPath: "/db/port", Operator: remove, Value: rawJSON("1")},
				}},
				{FieldPath: "/data/config.yaml", YAML: []policyv1alpha1.YAMLPatchOperation{
					{SubPath: "db", Operator: replace},
				}},
			}},
			want: []fieldErr{
				invalid(ov + ".fieldOverrider[0].json[0].subPath"),
				notSupported(ov + ".fieldOverrider[0].json[1].operator"),
				required(ov + ".fieldOverrider[0].json[2].value"),
				forbidden(ov + ".fieldOverrider[0].json[3].value"),
				invalid(ov + ".fieldOverrider[1].yaml[0].subPath"),
				required(ov + ".fieldOverrider[1].yaml[0].value"),
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			policy := &policyv1alpha1.OverridePolicy{
				ObjectMeta: metav1.ObjectMeta{Name: "nginx-override", Namespace: "default"},
				Spec: policyv1alpha1.OverrideSpec{
					OverrideRules: []policyv1alpha1.RuleWithCluster{{Overriders: tc.overriders}},
				},
			}
			expectErrors(t, ValidateOverridePolicy(policy), tc.want)
		})
	}
}
