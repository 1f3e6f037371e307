package builtin

import (
	"testing"

	"github.com/mco-org/mco/pkg/registry/resource"
)

// TestKindsFollowKubeAPIServer pins, per kind, the generation and status
// behaviour of kube-apiserver's own strategies.
func TestKindsFollowKubeAPIServer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		kind           string
		generation     resource.GenerationPolicy
		statusMetadata resource.StatusMetadataPolicy
		validateStatus bool
	}{
		{"Namespace", resource.GenerationNone, resource.StatusAcceptsMetadata, true},
		{"ConfigMap", resource.GenerationNone, 0, false},
		{"Secret", resource.GenerationNone, 0, false},
		{"Service", resource.GenerationNone, resource.StatusAcceptsMetadata, true},
		{"ServiceAccount", resource.GenerationNone, 0, false},
		{"PersistentVolumeClaim", resource.GenerationNone, resource.StatusAcceptsMetadata, true},
		{"Event", resource.GenerationNone, 0, false},
		{"Lease", resource.GenerationNone, 0, false},
		{"Deployment", resource.GenerationOnSpecOrAnnotationChange, resource.StatusResetsLabels, true},
		{"StatefulSet", resource.GenerationOnSpecChange, resource.StatusAcceptsMetadata, true},
		{"DaemonSet", resource.GenerationOnSpecChange, resource.StatusAcceptsMetadata, true},
		{"ReplicaSet", resource.GenerationOnSpecChange, resource.StatusAcceptsMetadata, true},
		{"Job", resource.GenerationOnSpecChange, resource.StatusAcceptsMetadata, true},
	}
	specs := map[string]*resource.Spec{}
	for _, s := range Resources() {
		specs[s.Kind] = s
	}
	if len(specs) != len(cases) {
		t.Errorf("%d built-in kinds served, %d pinned here: pin the new ones", len(specs), len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.kind, func(t *testing.T) {
			t.Parallel()
			s, ok := specs[tc.kind]
			if !ok {
				t.Fatalf("%s is not served", tc.kind)
			}
			if s.Generation != tc.generation {
				t.Errorf("generation policy %d, want %d", s.Generation, tc.generation)
			}
			if s.HasStatus && s.StatusMetadata != tc.statusMetadata {
				t.Errorf("status metadata policy %d, want %d", s.StatusMetadata, tc.statusMetadata)
			}
			if (s.ValidateStatus != nil) != tc.validateStatus {
				t.Errorf("has a status check: %v, want %v", s.ValidateStatus != nil, tc.validateStatus)
			}
		})
	}
}
