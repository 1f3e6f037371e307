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

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/overridemanager"
)

// TestOverriderOrderWithinRule: within one rule the overriders run image,
// command, args, labels, annotations, field, then plaintext, whatever
// else is set; rules of a policy run in list order. Each case is built so
// that another order gives another result or an error. Pairs that touch
// disjoint data (command and args, labels and annotations) cannot be told
// apart and are not checked.
func TestOverriderOrderWithinRule(t *testing.T) {
	t.Parallel()
	const (
		in = `{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: default, labels: {app: web}, annotations: {config: '{"replicas":1}'}},
  spec: {template: {spec: {containers: [{name: web, image: "nginx:1.25", command: [nginx, serve]}]}}}}`
		containers = "/spec/template/spec/containers/0"
		replace    = policyv1alpha1.OverriderOpReplace
		add        = policyv1alpha1.OverriderOpAdd
		remove     = policyv1alpha1.OverriderOpRemove
	)
	// want is the input manifest with the given metadata and container.
	want := func(metadata, container string) string {
		return `{apiVersion: apps/v1, kind: Deployment, metadata: ` + metadata + `, spec: {template: {spec: {containers: [` + container + `]}}}}`
	}
	const (
		sameMeta      = `{name: web, namespace: default, labels: {app: web}, annotations: {config: '{"replicas":1}'}}`
		sameContainer = `{name: web, image: "nginx:1.25", command: [nginx, serve]}`
	)
	mirror := []policyv1alpha1.ImageOverrider{{Component: policyv1alpha1.Registry, Operator: replace, Value: "mirror.io"}}
	editConfig := func(replicas string) []policyv1alpha1.FieldOverrider {
		return []policyv1alpha1.FieldOverrider{{FieldPath: "/metadata/annotations/config", JSON: []policyv1alpha1.JSONPatchOperation{
			{SubPath: "/replicas", Operator: replace, Value: raw(replicas)},
		}}}
	}
	tests := []struct {
		name  string
		rules []policyv1alpha1.Overriders
		want  string
	}{
		{
			name: "A plaintext replace of the image wins over an imageOverrider in the same rule, as plaintext runs last.",
			rules: []policyv1alpha1.Overriders{{
				Plaintext:      []policyv1alpha1.PlaintextOverrider{{Path: containers + "/image", Operator: replace, Value: raw(`"registry.example/app:2"`)}},
				ImageOverrider: mirror,
			}},
			want: want(sameMeta, `{name: web, image: "registry.example/app:2", command: [nginx, serve]}`),
		},
		{
			name: "A commandOverrider sees the command an imageOverrider rewrote in the same rule, as images run first.",
			rules: []policyv1alpha1.Overriders{{
				// Removing "nginx" first would leave "serve" at index 0 for the image overrider.
				CommandOverrider: []policyv1alpha1.CommandArgsOverrider{{ContainerName: "web", Operator: remove, Value: []string{"nginx"}}},
				ImageOverrider: []policyv1alpha1.ImageOverrider{{
					Predicate: &policyv1alpha1.ImagePredicate{Path: containers + "/command/0"}, Component: policyv1alpha1.Registry, Operator: replace, Value: "mirror.io",
				}},
			}},
			want: want(sameMeta, `{name: web, image: "nginx:1.25", command: [mirror.io/nginx, serve]}`),
		},
		{
			name: "A fieldOverrider edits a JSON argument that an argsOverrider appended in the same rule, as args run before fields.",
			rules: []policyv1alpha1.Overriders{{
				FieldOverrider: []policyv1alpha1.FieldOverrider{{FieldPath: containers + "/args/0", JSON: []policyv1alpha1.JSONPatchOperation{
					{SubPath: "/level", Operator: replace, Value: raw(`"debug"`)},
				}}},
				ArgsOverrider: []policyv1alpha1.CommandArgsOverrider{{ContainerName: "web", Operator: add, Value: []string{`{"level":"info"}`}}},
			}},
			want: want(sameMeta, `{name: web, image: "nginx:1.25", command: [nginx, serve], args: ['{"level":"debug"}']}`),
		},
		{
			name: "A plaintext remove drops a label a labelsOverrider added in the same rule, as labels run before plaintext.",
			rules: []policyv1alpha1.Overriders{{
				Plaintext:       []policyv1alpha1.PlaintextOverrider{{Path: "/metadata/labels/tier", Operator: remove}},
				LabelsOverrider: []policyv1alpha1.LabelAnnotationOverrider{{Operator: add, Value: map[string]string{"tier": "frontend"}}},
			}},
			want: want(sameMeta, sameContainer),
		},
		{
			name: "A fieldOverrider edits the annotation an annotationsOverrider set in the same rule, as annotations run before fields.",
			rules: []policyv1alpha1.Overriders{{
				FieldOverrider:       editConfig("3"),
				AnnotationsOverrider: []policyv1alpha1.LabelAnnotationOverrider{{Operator: replace, Value: map[string]string{"config": `{"replicas":2}`}}},
			}},
			want: want(`{name: web, namespace: default, labels: {app: web}, annotations: {config: '{"replicas":3}'}}`, sameContainer),
		},
		{
			name: "A plaintext replace of a field wins over a fieldOverrider edit of it in the same rule, as plaintext runs after fields.",
			rules: []policyv1alpha1.Overriders{{
				Plaintext:      []policyv1alpha1.PlaintextOverrider{{Path: "/metadata/annotations/config", Operator: replace, Value: raw(`"{\"replicas\":5}"`)}},
				FieldOverrider: editConfig("4"),
			}},
			want: want(`{name: web, namespace: default, labels: {app: web}, annotations: {config: '{"replicas":5}'}}`, sameContainer),
		},
		{
			name: "Rules run in list order, so a later rule's imageOverrider rewrites the image an earlier rule's plaintext set.",
			rules: []policyv1alpha1.Overriders{
				{Plaintext: []policyv1alpha1.PlaintextOverrider{{Path: containers + "/image", Operator: replace, Value: raw(`"registry.example/app:2"`)}}},
				{ImageOverrider: mirror},
			},
			want: want(sameMeta, `{name: web, image: "mirror.io/app:2", command: [nginx, serve]}`),
		},
		{
			name: "Rules run in list order, so a later rule's labelsOverrider puts back a label an earlier rule's plaintext removed.",
			rules: []policyv1alpha1.Overriders{
				{Plaintext: []policyv1alpha1.PlaintextOverrider{{Path: "/metadata/labels/app", Operator: remove}}},
				{LabelsOverrider: []policyv1alpha1.LabelAnnotationOverrider{{Operator: add, Value: map[string]string{"app": "web-eu"}}}},
			},
			want: want(`{name: web, namespace: default, labels: {app: web-eu}, annotations: {config: '{"replicas":1}'}}`, sameContainer),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rules := make([]policyv1alpha1.RuleWithCluster, len(tt.rules))
			for i := range tt.rules {
				rules[i] = everywhere(tt.rules[i])
			}
			obj := manifest(t, in)
			if _, err := overridemanager.Apply(obj, member(), overridemanager.Policies{
				Cluster: []*policyv1alpha1.ClusterOverridePolicy{cop("order", nil, rules...)},
			}); err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if diff := cmp.Diff(manifest(t, tt.want).Object, obj.Object); diff != "" {
				t.Errorf("manifest (-want +got):\n%s", diff)
			}
		})
	}
}
