package rollout

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

func TestTemplateStatusDuringAStagedRollout(t *testing.T) {
	items := []workv1alpha2.AggregatedStatusItem{
		{ClusterName: "member2", Status: &runtime.RawExtension{Raw: []byte(`{"updatedReplicas":1}`)}},
		{ClusterName: "member1", Status: &runtime.RawExtension{Raw: []byte(`{"updatedReplicas":1}`)}},
	}
	ro := func(cond string, status metav1.ConditionStatus) *rolloutv1alpha1.Rollout {
		return &rolloutv1alpha1.Rollout{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-deployment"},
			Status: rolloutv1alpha1.RolloutStatus{CurrentRevision: 2,
				Clusters:   []rolloutv1alpha1.ClusterRevision{{Name: "member2", Revision: 2}, {Name: "member1", Revision: 1}},
				Conditions: []metav1.Condition{{Type: cond, Status: status, Message: "wave canary"}}}}
	}
	now := metav1.Now()
	tests := []struct {
		name           string
		ro             *rolloutv1alpha1.Rollout
		updated        int64
		status, reason string
		untouched      bool
	}{
		{"progressing", ro(rolloutv1alpha1.ConditionProgressing, metav1.ConditionTrue), 1, "True", ReasonStagedProgressing, false},
		{"paused", ro(rolloutv1alpha1.ConditionPaused, metav1.ConditionTrue), 1, "Unknown", ReasonStagedPaused, false},
		{"failed", ro(rolloutv1alpha1.ConditionFailed, metav1.ConditionTrue), 1, "False", ReasonDeadlineExceeded, false},
		{"complete", ro(rolloutv1alpha1.ConditionComplete, metav1.ConditionTrue), 2, "True", "NewReplicaSetAvailable", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status := map[string]any{"updatedReplicas": int64(2), "conditions": []any{
				map[string]any{"type": "Available", "status": "True"},
				map[string]any{"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable"}}}
			got := TemplateStatus(deploymentGVK, status, nil, items, tc.ro, now)
			if got["updatedReplicas"] != tc.updated {
				t.Errorf("updatedReplicas %v, want %d", got["updatedReplicas"], tc.updated)
			}
			p := progressing(got)
			if p["status"] != tc.status || p["reason"] != tc.reason {
				t.Errorf("Progressing %v, want %s %s", p, tc.status, tc.reason)
			}
			if conds := got["conditions"].([]any); len(conds) != 2 {
				t.Errorf("conditions %v, want Available and Progressing", conds)
			}
		})
	}
}
