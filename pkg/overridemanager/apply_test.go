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
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/overridemanager"
	"github.com/mco-org/mco/pkg/testing/builders"
)

const web = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, labels: {app: web}}
spec:
  replicas: 3
  template:
    spec:
      containers: [{name: web, image: "docker.io/nginx:1.25", args: []}]`

var (
	matchAll   []policyv1alpha1.ResourceSelector
	byKind     = []policyv1alpha1.ResourceSelector{{APIVersion: "apps/v1", Kind: "Deployment"}}
	byLabel    = []policyv1alpha1.ResourceSelector{{APIVersion: "apps/v1", Kind: "Deployment", LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
	byName     = []policyv1alpha1.ResourceSelector{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"}}
	byOtherKey = []policyv1alpha1.ResourceSelector{{APIVersion: "apps/v1", Kind: "Deployment", Name: "api"}}
)

// appendArg is a rule for every cluster that appends the tag to the web
// container's args, so the args record the order rules ran in.
func appendArg(tag string) policyv1alpha1.RuleWithCluster {
	return everywhere(policyv1alpha1.Overriders{ArgsOverrider: []policyv1alpha1.CommandArgsOverrider{
		{ContainerName: "web", Operator: policyv1alpha1.OverriderOpAdd, Value: []string{tag}},
	}})
}

func TestApplyOrder(t *testing.T) {
	t.Parallel()
	obj := manifest(t, web)
	applied, err := overridemanager.Apply(obj, member(), overridemanager.Policies{
		// Given out of order on purpose.
		Namespaced: []*policyv1alpha1.OverridePolicy{
			op("default", "a-name", byName, appendArg("op/a-name")),
			op("prod", "other-namespace", matchAll, appendArg("op/other-namespace")),
			op("default", "c-label", byLabel, appendArg("op/c-label")),
			op("default", "b-all", matchAll, appendArg("op/b-all")),
		},
		Cluster: []*policyv1alpha1.ClusterOverridePolicy{
			cop("c-name", byName, appendArg("cop/c-name")),
			cop("e-miss", byOtherKey, appendArg("cop/e-miss")),
			cop("d-kind", byKind, appendArg("cop/d-kind")),
			cop("a-label", byLabel, appendArg("cop/a-label")),
			cop("b-all", matchAll, appendArg("cop/b-all"), appendArg("cop/b-all-2")),
		},
	})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	wantArgs := []any{
		"cop/b-all", "cop/b-all-2", "cop/d-kind", "cop/a-label", "cop/c-name",
		"op/b-all", "op/c-label", "op/a-name",
	}
	containers, _, _ := unstructured.NestedSlice(obj.Object, "spec", "template", "spec", "containers")
	if diff := cmp.Diff(wantArgs, containers[0].(map[string]any)["args"]); diff != "" {
		t.Errorf("order of application (-want +got):\n%s", diff)
	}
	wantNames := []string{
		"clusteroverridepolicy b-all", "clusteroverridepolicy d-kind", "clusteroverridepolicy a-label", "clusteroverridepolicy c-name",
		"overridepolicy default/b-all", "overridepolicy default/c-label", "overridepolicy default/a-name",
	}
	if diff := cmp.Diff(wantNames, applied.Names()); diff != "" {
		t.Errorf("applied policies (-want +got):\n%s", diff)
	}
	if n := len(applied[0].Overriders); n != 2 {
		t.Errorf("clusteroverridepolicy b-all records %d rules, want 2", n)
	}
}

func TestApplyPerCluster(t *testing.T) {
	t.Parallel()
	perCluster := op("default", "regional", byName,
		policyv1alpha1.RuleWithCluster{
			TargetCluster: &policyv1alpha1.ClusterAffinity{ClusterNames: []string{"m1"}},
			Overriders: policyv1alpha1.Overriders{
				ImageOverrider:  []policyv1alpha1.ImageOverrider{{Component: policyv1alpha1.Registry, Operator: policyv1alpha1.OverriderOpReplace, Value: "m1.registry.io"}},
				LabelsOverrider: []policyv1alpha1.LabelAnnotationOverrider{{Operator: policyv1alpha1.OverriderOpAdd, Value: map[string]string{"cluster": "m1"}}},
			},
		},
		policyv1alpha1.RuleWithCluster{
			TargetCluster: &policyv1alpha1.ClusterAffinity{LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"region": "eu"}}},
			Overriders: policyv1alpha1.Overriders{
				ImageOverrider:  []policyv1alpha1.ImageOverrider{{Component: policyv1alpha1.Registry, Operator: policyv1alpha1.OverriderOpReplace, Value: "eu.registry.io"}},
				LabelsOverrider: []policyv1alpha1.LabelAnnotationOverrider{{Operator: policyv1alpha1.OverriderOpAdd, Value: map[string]string{"cluster": "eu"}}},
			},
		},
	)
	tests := []struct {
		name      string
		cluster   *builders.ClusterBuilder
		wantImage string
		wantLabel string
		wantRules int
	}{
		{name: "The named cluster gets its own registry and label.", cluster: builders.NewCluster("m1"), wantImage: "m1.registry.io/nginx:1.25", wantLabel: "m1", wantRules: 1},
		{name: "A cluster in the region gets the regional registry and label.", cluster: builders.NewCluster("m2").WithLabel("region", "eu"), wantImage: "eu.registry.io/nginx:1.25", wantLabel: "eu", wantRules: 1},
		{name: "When both rules select the cluster, the later rule wins.", cluster: builders.NewCluster("m1").WithLabel("region", "eu"), wantImage: "eu.registry.io/nginx:1.25", wantLabel: "eu", wantRules: 2},
		{name: "Another cluster keeps the template as it is.", cluster: builders.NewCluster("m3").WithLabel("region", "us"), wantImage: "docker.io/nginx:1.25"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			obj := manifest(t, web)
			applied, err := overridemanager.Apply(obj, tt.cluster.Build(), overridemanager.Policies{
				Namespaced: []*policyv1alpha1.OverridePolicy{perCluster},
			})
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			containers, _, _ := unstructured.NestedSlice(obj.Object, "spec", "template", "spec", "containers")
			if got := containers[0].(map[string]any)["image"]; got != tt.wantImage {
				t.Errorf("image = %v, want %s", got, tt.wantImage)
			}
			if got := obj.GetLabels()["cluster"]; got != tt.wantLabel {
				t.Errorf("cluster label = %q, want %q", got, tt.wantLabel)
			}
			gotRules := 0
			if len(applied) > 0 {
				gotRules = len(applied[0].Overriders)
			}
			if gotRules != tt.wantRules || len(applied) > 1 {
				t.Errorf("applied = %+v, want one policy with %d rules", applied, tt.wantRules)
			}
		})
	}
}

func TestApplyDeprecatedSingleRule(t *testing.T) {
	t.Parallel()
	legacy := &policyv1alpha1.ClusterOverridePolicy{
		ObjectMeta: metav1.ObjectMeta{Name: "legacy"},
		Spec: policyv1alpha1.OverrideSpec{
			TargetCluster: &policyv1alpha1.ClusterAffinity{ClusterNames: []string{"member1"}},
			Overriders: policyv1alpha1.Overriders{Plaintext: []policyv1alpha1.PlaintextOverrider{
				{Path: "/spec/replicas", Operator: policyv1alpha1.OverriderOpReplace, Value: raw("1")},
			}},
		},
	}
	obj := manifest(t, web)
	applied, err := overridemanager.Apply(obj, member(), overridemanager.Policies{Cluster: []*policyv1alpha1.ClusterOverridePolicy{legacy}})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if got := obj.Object["spec"].(map[string]any)["replicas"]; got != int64(1) {
		t.Errorf("replicas = %v (%T), want int64 1", got, got)
	}
	if diff := cmp.Diff([]string{"clusteroverridepolicy legacy"}, applied.Names()); diff != "" {
		t.Errorf("applied (-want +got):\n%s", diff)
	}

	other := manifest(t, web)
	applied, err = overridemanager.Apply(other, builders.NewCluster("member2").Build(), overridemanager.Policies{Cluster: []*policyv1alpha1.ClusterOverridePolicy{legacy}})
	if err != nil || len(applied) != 0 {
		t.Errorf("Apply for another cluster = %v, %v; want nothing applied", applied, err)
	}
}

func TestApplyScope(t *testing.T) {
	t.Parallel()
	label := func(value string) policyv1alpha1.RuleWithCluster {
		return everywhere(policyv1alpha1.Overriders{LabelsOverrider: []policyv1alpha1.LabelAnnotationOverrider{
			{Operator: policyv1alpha1.OverriderOpAdd, Value: map[string]string{"by": value}},
		}})
	}
	namespace := `{apiVersion: v1, kind: Namespace, metadata: {name: default}}`
	tests := []struct {
		name     string
		manifest string
		policies overridemanager.Policies
		want     []string
	}{
		{
			name:     "An override policy does not apply to a cluster-scoped resource.",
			manifest: namespace,
			policies: overridemanager.Policies{Namespaced: []*policyv1alpha1.OverridePolicy{op("default", "op", matchAll, label("op"))}},
		},
		{
			name:     "A cluster override policy applies to a cluster-scoped resource.",
			manifest: namespace,
			policies: overridemanager.Policies{Cluster: []*policyv1alpha1.ClusterOverridePolicy{cop("cop", matchAll, label("cop"))}},
			want:     []string{"clusteroverridepolicy cop"},
		},
		{
			name:     "A selector for another kind does not apply.",
			manifest: web,
			policies: overridemanager.Policies{Cluster: []*policyv1alpha1.ClusterOverridePolicy{
				cop("cop", []policyv1alpha1.ResourceSelector{{APIVersion: "v1", Kind: "Service"}}, label("cop")),
			}},
		},
		{
			name:     "A policy whose rules all target other clusters is not listed as applied.",
			manifest: web,
			policies: overridemanager.Policies{Cluster: []*policyv1alpha1.ClusterOverridePolicy{
				cop("cop", matchAll, policyv1alpha1.RuleWithCluster{
					TargetCluster: &policyv1alpha1.ClusterAffinity{ExcludeClusters: []string{"member1"}}, Overriders: label("x").Overriders,
				}),
			}},
		},
		{
			name:     "A rule without overriders is not listed as applied.",
			manifest: web,
			policies: overridemanager.Policies{Cluster: []*policyv1alpha1.ClusterOverridePolicy{cop("empty", matchAll, everywhere(policyv1alpha1.Overriders{}))}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			obj := manifest(t, tt.manifest)
			applied, err := overridemanager.Apply(obj, member(), tt.policies)
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if diff := cmp.Diff(tt.want, applied.Names(), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("applied (-want +got):\n%s", diff)
			}
			if len(tt.want) == 0 {
				if diff := cmp.Diff(manifest(t, tt.manifest).Object, obj.Object); diff != "" {
					t.Errorf("manifest changed (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestApplyErrors(t *testing.T) {
	t.Parallel()
	goodLabel := everywhere(policyv1alpha1.Overriders{LabelsOverrider: []policyv1alpha1.LabelAnnotationOverrider{
		{Operator: policyv1alpha1.OverriderOpAdd, Value: map[string]string{"good": "yes"}},
	}})
	badReplicas := everywhere(plaintext(policyv1alpha1.PlaintextOverrider{Path: "/spec/replicas2", Operator: policyv1alpha1.OverriderOpReplace, Value: raw("2")}))
	tests := []struct {
		name     string
		policies overridemanager.Policies
		wantErr  string
	}{
		{
			name: "A malformed rule of a later policy fails the whole override and names the policy and rule.",
			policies: overridemanager.Policies{
				Cluster:    []*policyv1alpha1.ClusterOverridePolicy{cop("good", matchAll, goodLabel)},
				Namespaced: []*policyv1alpha1.OverridePolicy{op("default", "foo", byName, goodLabel, badReplicas)},
			},
			wantErr: "overridepolicy default/foo rule 1: plaintext[0] replace /spec/replicas2: nothing to replace: /spec/replicas2: no such field",
		},
		{
			name: "A malformed target cluster is an error, not a silent mismatch.",
			policies: overridemanager.Policies{Cluster: []*policyv1alpha1.ClusterOverridePolicy{cop("zones", matchAll, policyv1alpha1.RuleWithCluster{
				TargetCluster: &policyv1alpha1.ClusterAffinity{FieldSelector: &policyv1alpha1.FieldSelector{
					MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: "Exists"}},
				}},
				Overriders: goodLabel.Overriders,
			})}},
			wantErr: `clusteroverridepolicy zones rule 0: targetCluster: fieldSelector.matchExpressions[0]: unsupported operator "Exists"`,
		},
		{
			name: "An error in the deprecated form names spec.overriders.",
			policies: overridemanager.Policies{Cluster: []*policyv1alpha1.ClusterOverridePolicy{{
				ObjectMeta: metav1.ObjectMeta{Name: "legacy"},
				Spec:       policyv1alpha1.OverrideSpec{Overriders: badReplicas.Overriders},
			}}},
			wantErr: "clusteroverridepolicy legacy spec.overriders: plaintext[0] replace /spec/replicas2: nothing to replace: /spec/replicas2: no such field",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			obj := manifest(t, web)
			applied, err := overridemanager.Apply(obj, member(), tt.policies)
			if errText(err) != tt.wantErr {
				t.Fatalf("Apply error = %q, want %q", errText(err), tt.wantErr)
			}
			if applied != nil {
				t.Errorf("applied = %v, want nil on error", applied.Names())
			}
			if diff := cmp.Diff(manifest(t, web).Object, obj.Object); diff != "" {
				t.Errorf("manifest changed despite the error (-want +got):\n%s", diff)
			}
		})
	}
}
