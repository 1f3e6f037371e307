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

const deploymentWithReplicas = `{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: default}, spec: {replicas: 3, paused: false}}`

func plaintext(ops ...policyv1alpha1.PlaintextOverrider) policyv1alpha1.Overriders {
	return policyv1alpha1.Overriders{Plaintext: ops}
}

func TestPlaintextOverrider(t *testing.T) {
	t.Parallel()
	runOverriderCases(t, []overriderCase{
		{
			name:      "Replace sets an existing field, numbers staying integers.",
			in:        deploymentWithReplicas,
			overrider: plaintext(policyv1alpha1.PlaintextOverrider{Path: "/spec/replicas", Operator: policyv1alpha1.OverriderOpReplace, Value: raw("5")}),
			want:      `{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: default}, spec: {replicas: 5, paused: false}}`,
		},
		{
			name: "Add creates a field and operations apply in order.",
			in:   deploymentWithReplicas,
			overrider: plaintext(
				policyv1alpha1.PlaintextOverrider{Path: "/spec/strategy", Operator: policyv1alpha1.OverriderOpAdd, Value: raw(`{"type":"Recreate"}`)},
				policyv1alpha1.PlaintextOverrider{Path: "/spec/strategy/type", Operator: policyv1alpha1.OverriderOpReplace, Value: raw(`"RollingUpdate"`)},
				policyv1alpha1.PlaintextOverrider{Path: "/spec/paused", Operator: policyv1alpha1.OverriderOpRemove},
			),
			want: `{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: default}, spec: {replicas: 3, strategy: {type: RollingUpdate}}}`,
		},
		{
			name:      "Add with a ~1 path reaches a key with a slash.",
			in:        deploymentWithReplicas,
			overrider: plaintext(policyv1alpha1.PlaintextOverrider{Path: "/metadata/labels", Operator: policyv1alpha1.OverriderOpAdd, Value: raw(`{"app.kubernetes.io/name":"web"}`)}),
			want:      `{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: default, labels: {app.kubernetes.io/name: web}}, spec: {replicas: 3, paused: false}}`,
		},
		{
			name:      "Replace of a missing field is an error naming the policy, rule, operation and path.",
			in:        deploymentWithReplicas,
			overrider: plaintext(policyv1alpha1.PlaintextOverrider{Path: "/spec/replicas2", Operator: policyv1alpha1.OverriderOpReplace, Value: raw("5")}),
			wantErr:   "clusteroverridepolicy test rule 0: plaintext[0] replace /spec/replicas2: nothing to replace: /spec/replicas2: no such field",
		},
		{
			name:      "Remove of a missing field is an error.",
			in:        deploymentWithReplicas,
			overrider: plaintext(policyv1alpha1.PlaintextOverrider{Path: "/spec/strategy", Operator: policyv1alpha1.OverriderOpRemove}),
			wantErr:   "clusteroverridepolicy test rule 0: plaintext[0] remove /spec/strategy: error in remove for path: '/spec/strategy': Unable to remove nonexistent key: strategy: missing value",
		},
		{
			name:      "Add under a missing parent is an error.",
			in:        deploymentWithReplicas,
			overrider: plaintext(policyv1alpha1.PlaintextOverrider{Path: "/spec/template/spec", Operator: policyv1alpha1.OverriderOpAdd, Value: raw("{}")}),
			wantErr:   `clusteroverridepolicy test rule 0: plaintext[0] add /spec/template/spec: add operation does not apply: doc is missing path: "/spec/template/spec": missing value`,
		},
		{
			name:      "Replace without a value is an error.",
			in:        deploymentWithReplicas,
			overrider: plaintext(policyv1alpha1.PlaintextOverrider{Path: "/spec/replicas", Operator: policyv1alpha1.OverriderOpReplace}),
			wantErr:   "clusteroverridepolicy test rule 0: plaintext[0] replace /spec/replicas: replace needs a value",
		},
		{
			name:      "Move is not an operator of overriders.",
			in:        deploymentWithReplicas,
			overrider: plaintext(policyv1alpha1.PlaintextOverrider{Path: "/spec/replicas", Operator: "move"}),
			wantErr:   `clusteroverridepolicy test rule 0: plaintext[0] move /spec/replicas: unsupported operator "move"`,
		},
		{
			name: "A failing operation after a good one leaves the object untouched.",
			in:   deploymentWithReplicas,
			overrider: plaintext(
				policyv1alpha1.PlaintextOverrider{Path: "/spec/replicas", Operator: policyv1alpha1.OverriderOpReplace, Value: raw("5")},
				policyv1alpha1.PlaintextOverrider{Path: "/spec/x", Operator: policyv1alpha1.OverriderOpRemove},
			),
			wantErr: "clusteroverridepolicy test rule 0: plaintext[1] remove /spec/x: error in remove for path: '/spec/x': Unable to remove nonexistent key: x: missing value",
		},
	})
}
