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

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/placement"
)

// deployment builds an apps/v1 Deployment template with the given labels
// (key, value, key, value...).
func deployment(namespace, name string, kv ...string) *unstructured.Unstructured {
	obj := &unstructured.Unstructured{}
	obj.SetAPIVersion("apps/v1")
	obj.SetKind("Deployment")
	obj.SetNamespace(namespace)
	obj.SetName(name)
	if len(kv) > 0 {
		l := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			l[kv[i]] = kv[i+1]
		}
		obj.SetLabels(l)
	}
	return obj
}

// kind selects every apps/v1 Deployment.
func kind() policyv1alpha1.ResourceSelector {
	return policyv1alpha1.ResourceSelector{APIVersion: "apps/v1", Kind: "Deployment"}
}

func named(name string) policyv1alpha1.ResourceSelector {
	s := kind()
	s.Name = name
	return s
}

func labelled(key, value string) policyv1alpha1.ResourceSelector {
	s := kind()
	s.LabelSelector = &metav1.LabelSelector{MatchLabels: map[string]string{key: value}}
	return s
}

func TestResourceSelectorPriority(t *testing.T) {
	t.Parallel()
	web := deployment("default", "web", "app", "web")
	tests := []struct {
		name     string
		obj      *unstructured.Unstructured
		selector policyv1alpha1.ResourceSelector
		want     placement.ImplicitPriority
		wantErr  string
	}{
		{name: "A kind-only selector matches all resources of the kind.", obj: web, selector: kind(), want: placement.PriorityMatchAll},
		{
			name: "Another apiVersion does not match.", obj: web,
			selector: policyv1alpha1.ResourceSelector{APIVersion: "apps/v1beta1", Kind: "Deployment"}, want: placement.PriorityMisMatch,
		},
		{
			name: "Another kind does not match.", obj: web,
			selector: policyv1alpha1.ResourceSelector{APIVersion: "apps/v1", Kind: "StatefulSet"}, want: placement.PriorityMisMatch,
		},
		{
			name: "A selector naming the namespace matches in that namespace.", obj: web,
			selector: policyv1alpha1.ResourceSelector{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default"}, want: placement.PriorityMatchAll,
		},
		{
			name: "A selector naming another namespace does not match.", obj: web,
			selector: policyv1alpha1.ResourceSelector{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "prod"}, want: placement.PriorityMisMatch,
		},
		{name: "A selector naming the resource matches by name.", obj: web, selector: named("web"), want: placement.PriorityMatchName},
		{name: "A selector naming another resource does not match.", obj: web, selector: named("api"), want: placement.PriorityMisMatch},
		{name: "A matching label selector matches by label.", obj: web, selector: labelled("app", "web"), want: placement.PriorityMatchLabelSelector},
		{name: "A label selector that does not match the labels does not match.", obj: web, selector: labelled("app", "api"), want: placement.PriorityMisMatch},
		{
			name: "With a name, the label selector is ignored even when it would not match.", obj: web,
			selector: func() policyv1alpha1.ResourceSelector { s := labelled("app", "api"); s.Name = "web"; return s }(),
			want:     placement.PriorityMatchName,
		},
		{
			name: "A malformed label selector is a mismatch with an error.", obj: web,
			selector: func() policyv1alpha1.ResourceSelector {
				s := kind()
				s.LabelSelector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: "Near"}}}
				return s
			}(),
			want: placement.PriorityMisMatch, wantErr: `labelSelector: "Near" is not a valid label selector operator`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := placement.ResourceSelectorPriority(tt.obj, &tt.selector)
			if got != tt.want {
				t.Errorf("ResourceSelectorPriority = %d, want %d", got, tt.want)
			}
			if gotErr := errString(err); gotErr != tt.wantErr {
				t.Errorf("error = %q, want %q", gotErr, tt.wantErr)
			}
			if matches := placement.ResourceMatches(tt.obj, tt.selector); matches != (tt.want != placement.PriorityMisMatch) {
				t.Errorf("ResourceMatches = %v, disagrees with priority %d", matches, got)
			}
		})
	}
}

func TestSelectorPriority(t *testing.T) {
	t.Parallel()
	web := deployment("default", "web", "app", "web")
	tests := []struct {
		name         string
		selectors    []policyv1alpha1.ResourceSelector
		want         placement.ImplicitPriority
		wantOverride placement.ImplicitPriority
	}{
		{
			name: "No selector matches nothing for a propagation policy and everything for an override policy.",
			want: placement.PriorityMisMatch, wantOverride: placement.PriorityMatchAll,
		},
		{
			name:      "The highest priority among the matching selectors wins.",
			selectors: []policyv1alpha1.ResourceSelector{kind(), named("web"), labelled("app", "web")},
			want:      placement.PriorityMatchName, wantOverride: placement.PriorityMatchName,
		},
		{
			name:      "A selector that does not match does not count, however specific.",
			selectors: []policyv1alpha1.ResourceSelector{named("api"), labelled("app", "web")},
			want:      placement.PriorityMatchLabelSelector, wantOverride: placement.PriorityMatchLabelSelector,
		},
		{
			name:      "Selectors that all miss give a mismatch.",
			selectors: []policyv1alpha1.ResourceSelector{named("api"), labelled("app", "api")},
			want:      placement.PriorityMisMatch, wantOverride: placement.PriorityMisMatch,
		},
		{
			name:      "A kind-only selector ranks as match-all.",
			selectors: []policyv1alpha1.ResourceSelector{kind()},
			want:      placement.PriorityMatchAll, wantOverride: placement.PriorityMatchAll,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := placement.SelectorPriority(web, tt.selectors); got != tt.want {
				t.Errorf("SelectorPriority = %d, want %d", got, tt.want)
			}
			if got := placement.OverrideSelectorPriority(web, tt.selectors); got != tt.wantOverride {
				t.Errorf("OverrideSelectorPriority = %d, want %d", got, tt.wantOverride)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
