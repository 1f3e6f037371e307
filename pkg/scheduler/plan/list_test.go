package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// TestReadFilesFlattensLists: a `kind: List` (as `kubectl get -o yaml`
// writes) and typed lists are read item by item, like kubectl -f does;
// an item's error names the item.
func TestReadFilesFlattensLists(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		content     string
		wantSources []string
		wantErr     string
	}{
		{
			name: "A v1 List holds a Deployment and a PropagationPolicy.",
			content: `apiVersion: v1
kind: List
items:
- {apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {replicas: 2}}
- apiVersion: policy.karmada.io/v1alpha1
  kind: PropagationPolicy
  metadata: {name: web}
  spec:
    resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
`,
			wantSources: []string{"document 1, item 1", "document 1, item 2"},
		},
		{
			name: "A typed list after a plain document.",
			content: `apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicyList
items:
- {apiVersion: policy.karmada.io/v1alpha1, kind: PropagationPolicy, metadata: {name: api}, spec: {resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]}}
`,
			wantSources: []string{"document 1", "document 2, item 1"},
		},
		{
			name:        "An empty List gives nothing.",
			content:     "apiVersion: v1\nkind: List\nitems: []\n",
			wantSources: nil,
		},
		{
			name: "A bad item is named.",
			content: `apiVersion: v1
kind: List
items:
- {apiVersion: apps/v1, kind: Deployment, metadata: {name: ok}}
- {apiVersion: policy.karmada.io/v1alpha1, kind: PropagationPolicy, metadata: {name: bad}, spec: {unknownField: 1}}
`,
			wantErr: "document 1, item 2",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "in.yaml")
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			docs, err := ReadFiles([]string{path})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one naming %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range docs {
				got = append(got, strings.TrimPrefix(d.Source, path+": "))
				if p, ok := d.Object.(*policyv1alpha1.PropagationPolicy); ok && p.Spec.Placement.ReplicaScheduling == nil && p.Spec.SchedulerName == "" {
					t.Errorf("%s: the policy from a list was not defaulted", d.Source)
				}
			}
			if strings.Join(got, "|") != strings.Join(tc.wantSources, "|") {
				t.Errorf("sources %q, want %q", got, tc.wantSources)
			}
		})
	}
}
