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

func TestLabelsAndAnnotationsOverriders(t *testing.T) {
	t.Parallel()
	const labelled = `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, labels: {app: web, app.kubernetes.io/part-of: shop}, annotations: {note: x}}}`
	labels := func(op policyv1alpha1.OverriderOperator, kv map[string]string) policyv1alpha1.Overriders {
		return policyv1alpha1.Overriders{LabelsOverrider: []policyv1alpha1.LabelAnnotationOverrider{{Operator: op, Value: kv}}}
	}
	runOverriderCases(t, []overriderCase{
		{
			name:      "Labels add sets new keys and overwrites existing ones.",
			in:        labelled,
			overrider: labels(policyv1alpha1.OverriderOpAdd, map[string]string{"app": "api", "tier": "front"}),
			want:      `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, labels: {app: api, tier: front, app.kubernetes.io/part-of: shop}, annotations: {note: x}}}`,
		},
		{
			name:      "Labels add creates the labels of an object without any.",
			in:        `{apiVersion: v1, kind: ConfigMap, metadata: {name: c}}`,
			overrider: labels(policyv1alpha1.OverriderOpAdd, map[string]string{"tier": "front"}),
			want:      `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, labels: {tier: front}}}`,
		},
		{
			name:      "Labels replace changes only keys that exist, including keys with a slash.",
			in:        labelled,
			overrider: labels(policyv1alpha1.OverriderOpReplace, map[string]string{"app.kubernetes.io/part-of": "mall", "tier": "front"}),
			want:      `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, labels: {app: web, app.kubernetes.io/part-of: mall}, annotations: {note: x}}}`,
		},
		{
			name:      "Labels remove deletes the keys whatever their values, and ignores missing ones.",
			in:        labelled,
			overrider: labels(policyv1alpha1.OverriderOpRemove, map[string]string{"app": "", "tier": ""}),
			want:      `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, labels: {app.kubernetes.io/part-of: shop}, annotations: {note: x}}}`,
		},
		{
			name:      "Labels remove on an object without labels changes nothing.",
			in:        `{apiVersion: v1, kind: ConfigMap, metadata: {name: c}}`,
			overrider: labels(policyv1alpha1.OverriderOpRemove, map[string]string{"app": ""}),
			want:      `{apiVersion: v1, kind: ConfigMap, metadata: {name: c}}`,
		},
		{
			name: "Annotations overriders change the annotations only.",
			in:   labelled,
			overrider: policyv1alpha1.Overriders{AnnotationsOverrider: []policyv1alpha1.LabelAnnotationOverrider{
				{Operator: policyv1alpha1.OverriderOpAdd, Value: map[string]string{"app": "annotated"}},
				{Operator: policyv1alpha1.OverriderOpRemove, Value: map[string]string{"note": ""}},
			}},
			want: `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, labels: {app: web, app.kubernetes.io/part-of: shop}, annotations: {app: annotated}}}`,
		},
		{
			name:      "An unknown operator is an error.",
			in:        labelled,
			overrider: labels("merge", map[string]string{"app": "x"}),
			wantErr:   `clusteroverridepolicy test rule 0: labelsOverrider[0]: unsupported operator "merge"`,
		},
	})
}
