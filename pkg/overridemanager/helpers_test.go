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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/overridemanager"
	"github.com/mco-org/mco/pkg/testing/builders"
)

// manifest decodes a YAML manifest the way the apiserver hands it out.
func manifest(t *testing.T, text string) *unstructured.Unstructured {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(text))
	if err != nil {
		t.Fatalf("manifest: %v", err)
	}
	obj := map[string]any{}
	if err := utiljson.Unmarshal(j, &obj); err != nil {
		t.Fatalf("manifest: %v", err)
	}
	return &unstructured.Unstructured{Object: obj}
}

// raw is a JSON value for patch operations.
func raw(s string) policyv1alpha1.JSON {
	return policyv1alpha1.JSON{Raw: []byte(s)}
}

func cop(name string, selectors []policyv1alpha1.ResourceSelector, rules ...policyv1alpha1.RuleWithCluster) *policyv1alpha1.ClusterOverridePolicy {
	return &policyv1alpha1.ClusterOverridePolicy{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       policyv1alpha1.OverrideSpec{ResourceSelectors: selectors, OverrideRules: rules},
	}
}

func op(namespace, name string, selectors []policyv1alpha1.ResourceSelector, rules ...policyv1alpha1.RuleWithCluster) *policyv1alpha1.OverridePolicy {
	return &policyv1alpha1.OverridePolicy{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec:       policyv1alpha1.OverrideSpec{ResourceSelectors: selectors, OverrideRules: rules},
	}
}

// everywhere is a rule for every cluster.
func everywhere(o policyv1alpha1.Overriders) policyv1alpha1.RuleWithCluster {
	return policyv1alpha1.RuleWithCluster{Overriders: o}
}

// member is the cluster most tests override for.
func member() *clusterv1alpha1.Cluster {
	return builders.NewCluster("member1").WithLabel("region", "eu").Build()
}

// applyOne applies the overriders, as one ClusterOverridePolicy "test" for
// every resource and cluster, to the manifest.
func applyOne(t *testing.T, text string, o policyv1alpha1.Overriders) (*unstructured.Unstructured, error) {
	t.Helper()
	obj := manifest(t, text)
	_, err := overridemanager.Apply(obj, member(), overridemanager.Policies{
		Cluster: []*policyv1alpha1.ClusterOverridePolicy{cop("test", nil, everywhere(o))},
	})
	return obj, err
}

// overriderCase is one table case for a kind of overrider: the manifest,
// the overriders, and the manifest or the error expected.
type overriderCase struct {
	name      string
	in        string
	overrider policyv1alpha1.Overriders
	want      string
	wantErr   string
}

func runOverriderCases(t *testing.T, tests []overriderCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := applyOne(t, tt.in, tt.overrider)
			if gotErr := errText(err); gotErr != tt.wantErr {
				t.Fatalf("Apply error = %q, want %q", gotErr, tt.wantErr)
			}
			want := tt.want
			if err != nil {
				want = tt.in // untouched
			}
			if diff := cmp.Diff(manifest(t, want).Object, got.Object); diff != "" {
				t.Errorf("manifest (-want +got):\n%s", diff)
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
