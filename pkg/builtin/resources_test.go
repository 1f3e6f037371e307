package builtin

import (
	"testing"

	"k8s.io/kubernetes/pkg/api/legacyscheme"
)

// TestKindsRunKubernetesStrategies: every built-in kind is prepared,
// validated and warned about by Kubernetes' own strategy for that kind,
// with a status strategy exactly when it serves a status subresource.
func TestKindsRunKubernetesStrategies(t *testing.T) {
	t.Parallel()
	want := map[string]bool{ // kind: has status
		"Namespace": true, "ConfigMap": false, "Secret": false, "Service": true, "ServiceAccount": false,
		"PersistentVolumeClaim": true, "Event": false, "Lease": false,
		"Deployment": true, "StatefulSet": true, "DaemonSet": true, "ReplicaSet": true, "Job": true,
		"Pod": true, "PodTemplate": false, "ReplicationController": true, "LimitRange": false, "ResourceQuota": true,
		"PersistentVolume": true, "ControllerRevision": false, "CronJob": true,
	}
	specs := Resources()
	if len(specs) != len(want) {
		t.Errorf("%d built-in kinds served, %d pinned here: pin the new ones", len(specs), len(want))
	}
	for _, s := range specs {
		hasStatus, ok := want[s.Kind]
		if !ok {
			t.Errorf("%s is not pinned here", s.Kind)
			continue
		}
		k := s.Kube
		if k == nil {
			t.Errorf("%s runs no Kubernetes strategy", s.Kind)
			continue
		}
		if s.HasStatus != hasStatus || (k.Status != nil) != hasStatus {
			t.Errorf("%s: status subresource %v, status strategy %v, want %v", s.Kind, s.HasStatus, k.Status != nil, hasStatus)
		}
		gvks, _, err := legacyscheme.Scheme.ObjectKinds(k.Internal())
		if err != nil || len(gvks) == 0 || gvks[0].Kind != s.Kind || gvks[0].Group != s.Resource.Group {
			t.Errorf("%s: internal type %T is %v (%v)", s.Kind, k.Internal(), gvks, err)
		}
	}
}
