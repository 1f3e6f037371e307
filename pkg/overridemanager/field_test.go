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

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

func TestFieldOverrider(t *testing.T) {
	t.Parallel()
	const configMap = `
apiVersion: v1
kind: ConfigMap
metadata: {name: app}
data:
  config.json: '{"db": {"host": "local", "port": 5432}, "debug": true}'
  config.yaml: |
    # a comment
    db:
      host: local
      port: 5432
    features: [a, b]
  plain: hello`
	jsonEdit := func(ops ...policyv1alpha1.JSONPatchOperation) policyv1alpha1.Overriders {
		return policyv1alpha1.Overriders{FieldOverrider: []policyv1alpha1.FieldOverrider{{FieldPath: "/data/config.json", JSON: ops}}}
	}
	yamlEdit := func(path string, ops ...policyv1alpha1.YAMLPatchOperation) policyv1alpha1.Overriders {
		return policyv1alpha1.Overriders{FieldOverrider: []policyv1alpha1.FieldOverrider{{FieldPath: path, YAML: ops}}}
	}
	runOverriderCases(t, []overriderCase{
		{
			name: "JSON edits apply in order and the document stays compact JSON.",
			in:   configMap,
			overrider: jsonEdit(
				policyv1alpha1.JSONPatchOperation{SubPath: "/db/host", Operator: policyv1alpha1.OverriderOpReplace, Value: raw(`"eu.db"`)},
				policyv1alpha1.JSONPatchOperation{SubPath: "/debug", Operator: policyv1alpha1.OverriderOpRemove},
				policyv1alpha1.JSONPatchOperation{SubPath: "/replicas", Operator: policyv1alpha1.OverriderOpAdd, Value: raw(`2`)},
			),
			want: `
apiVersion: v1
kind: ConfigMap
metadata: {name: app}
data:
  config.json: '{"db":{"host":"eu.db","port":5432},"replicas":2}'
  config.yaml: |
    # a comment
    db:
      host: local
      port: 5432
    features: [a, b]
  plain: hello`,
		},
		{
			name: "YAML edits come back as YAML with sorted keys.",
			in:   configMap,
			overrider: yamlEdit("/data/config.yaml",
				policyv1alpha1.YAMLPatchOperation{SubPath: "/db/port", Operator: policyv1alpha1.OverriderOpReplace, Value: raw(`6432`)},
				policyv1alpha1.YAMLPatchOperation{SubPath: "/features/-", Operator: policyv1alpha1.OverriderOpAdd, Value: raw(`"c"`)},
			),
			want: `
apiVersion: v1
kind: ConfigMap
metadata: {name: app}
data:
  config.json: '{"db": {"host": "local", "port": 5432}, "debug": true}'
  config.yaml: |
    db:
      host: local
      port: 6432
    features:
    - a
    - b
    - c
  plain: hello`,
		},
		{
			name:      "An empty sub path replaces the whole document.",
			in:        configMap,
			overrider: jsonEdit(policyv1alpha1.JSONPatchOperation{Operator: policyv1alpha1.OverriderOpReplace, Value: raw(`{ "fresh": true }`)}),
			want: `
apiVersion: v1
kind: ConfigMap
metadata: {name: app}
data:
  config.json: '{"fresh":true}'
  config.yaml: |
    # a comment
    db:
      host: local
      port: 5432
    features: [a, b]
  plain: hello`,
		},
		{
			name:      "A field that is not JSON is an error.",
			in:        configMap,
			overrider: policyv1alpha1.Overriders{FieldOverrider: []policyv1alpha1.FieldOverrider{{FieldPath: "/data/plain", JSON: []policyv1alpha1.JSONPatchOperation{{SubPath: "/a", Operator: policyv1alpha1.OverriderOpRemove}}}}},
			wantErr:   "clusteroverridepolicy test rule 0: fieldOverrider[0]: /data/plain: the field does not hold a JSON document",
		},
		{
			name:      "A missing field is an error.",
			in:        configMap,
			overrider: yamlEdit("/data/missing.yaml", policyv1alpha1.YAMLPatchOperation{SubPath: "/a", Operator: policyv1alpha1.OverriderOpRemove}),
			wantErr:   "clusteroverridepolicy test rule 0: fieldOverrider[0]: /data/missing.yaml: no such field",
		},
		{
			name:      "A field that is not a string is an error.",
			in:        configMap,
			overrider: yamlEdit("/metadata", policyv1alpha1.YAMLPatchOperation{SubPath: "/a", Operator: policyv1alpha1.OverriderOpRemove}),
			wantErr:   "clusteroverridepolicy test rule 0: fieldOverrider[0]: /metadata: an object, not a string",
		},
		{
			name:      "A failing edit names the edit inside the field.",
			in:        configMap,
			overrider: yamlEdit("/data/config.yaml", policyv1alpha1.YAMLPatchOperation{SubPath: "/db/user", Operator: policyv1alpha1.OverriderOpReplace, Value: raw(`"x"`)}),
			wantErr:   "clusteroverridepolicy test rule 0: fieldOverrider[0]: /data/config.yaml: yaml[0] replace /db/user: nothing to replace: /db/user: no such field",
		},
		{
			name:      "Removing the whole document is an error.",
			in:        configMap,
			overrider: jsonEdit(policyv1alpha1.JSONPatchOperation{Operator: policyv1alpha1.OverriderOpRemove}),
			wantErr:   `clusteroverridepolicy test rule 0: fieldOverrider[0]: /data/config.json: json[0] remove "": cannot remove the whole document`,
		},
		{
			name: "Setting both json and yaml is an error.",
			in:   configMap,
			overrider: policyv1alpha1.Overriders{FieldOverrider: []policyv1alpha1.FieldOverrider{{
				FieldPath: "/data/config.json",
				JSON:      []policyv1alpha1.JSONPatchOperation{{SubPath: "/a", Operator: policyv1alpha1.OverriderOpRemove}},
				YAML:      []policyv1alpha1.YAMLPatchOperation{{SubPath: "/a", Operator: policyv1alpha1.OverriderOpRemove}},
			}}},
			wantErr: "clusteroverridepolicy test rule 0: fieldOverrider[0]: json and yaml may not both be set",
		},
	})
}
