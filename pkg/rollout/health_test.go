package rollout

import (
	"encoding/json"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

var deploymentGVK = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}

// work is a Work at generation 2 carrying revision "3", applied and judged
// at appliedGen and availableGen, with one manifest status.
func work(appliedGen, availableGen int64, health workv1alpha1.ResourceHealth, status map[string]any) *workv1alpha1.Work {
	raw, _ := json.Marshal(status)
	w := &workv1alpha1.Work{ObjectMeta: metav1.ObjectMeta{Generation: 2, Annotations: map[string]string{rolloutv1alpha1.RevisionAnnotation: "3"}}}
	w.Status.Conditions = []metav1.Condition{
		{Type: workv1alpha1.WorkApplied, Status: metav1.ConditionTrue, ObservedGeneration: appliedGen},
		{Type: workv1alpha1.WorkAvailable, Status: metav1.ConditionTrue, ObservedGeneration: availableGen, Message: "not yet"},
	}
	w.Status.ManifestStatuses = []workv1alpha1.ManifestStatus{{Health: health, Status: &runtime.RawExtension{Raw: raw}}}
	return w
}

func TestObserve(t *testing.T) {
	rolled := map[string]any{"replicas": 2, "updatedReplicas": 2, "availableReplicas": 2}
	surging := map[string]any{"replicas": 3, "updatedReplicas": 1, "availableReplicas": 2}
	ready := map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": "True"}}}
	tests := []struct {
		name   string
		w      *workv1alpha1.Work
		gvk    schema.GroupVersionKind
		check  rolloutv1alpha1.HealthCheck
		rev    int64
		health rolloutv1alpha1.ClusterHealth
	}{
		{"no Work is unknown", nil, deploymentGVK, rolloutv1alpha1.HealthCheck{}, 0, rolloutv1alpha1.ClusterHealthUnknown},
		{"a Work not applied at its generation runs no known revision", work(1, 1, workv1alpha1.ResourceHealthy, rolled), deploymentGVK,
			rolloutv1alpha1.HealthCheck{}, 0, rolloutv1alpha1.ClusterHealthUnknown},
		{"a Work applied but not judged at its generation is unknown", work(2, 1, workv1alpha1.ResourceHealthy, rolled), deploymentGVK,
			rolloutv1alpha1.HealthCheck{}, 3, rolloutv1alpha1.ClusterHealthUnknown},
		{"a rolled-out Deployment is healthy", work(2, 2, workv1alpha1.ResourceHealthy, rolled), deploymentGVK,
			rolloutv1alpha1.HealthCheck{}, 3, rolloutv1alpha1.ClusterHealthy},
		{"a Deployment with pods of an earlier revision left is not", work(2, 2, workv1alpha1.ResourceHealthy, surging), deploymentGVK,
			rolloutv1alpha1.HealthCheck{}, 3, rolloutv1alpha1.ClusterUnhealthy},
		{"an unhealthy object is unhealthy", work(2, 2, workv1alpha1.ResourceUnhealthy, rolled), deploymentGVK,
			rolloutv1alpha1.HealthCheck{}, 3, rolloutv1alpha1.ClusterUnhealthy},
		{"a Job not complete yet is unknown", work(2, 2, workv1alpha1.ResourceHealthy, map[string]any{}),
			schema.GroupVersionKind{Group: "batch", Version: "v1", Kind: "Job"}, rolloutv1alpha1.HealthCheck{}, 3, rolloutv1alpha1.ClusterHealthUnknown},
		{"a named condition that holds is healthy", work(2, 2, workv1alpha1.ResourceUnknown, ready), deploymentGVK,
			rolloutv1alpha1.HealthCheck{Condition: &rolloutv1alpha1.ConditionCheck{Type: "Ready"}}, 3, rolloutv1alpha1.ClusterHealthy},
		{"a named condition with another status is unhealthy", work(2, 2, workv1alpha1.ResourceHealthy, ready), deploymentGVK,
			rolloutv1alpha1.HealthCheck{Condition: &rolloutv1alpha1.ConditionCheck{Type: "Ready", Status: metav1.ConditionFalse}}, 3, rolloutv1alpha1.ClusterUnhealthy},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := Observe(tc.w, tc.gvk, tc.check)
			if o.Revision != tc.rev || o.Health != tc.health {
				t.Errorf("observed revision %d %s (%s), want %d %s", o.Revision, o.Health, o.Message, tc.rev, tc.health)
			}
		})
	}
}

func TestResolveWaves(t *testing.T) {
	two := intstrPercent("50%")
	spec := []rolloutv1alpha1.Wave{
		{Name: "canary", ClusterNames: []string{"m2"}},
		{Name: "eu", LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"region": "eu"}}, MaxUnavailableClusters: &two},
		{Name: "rest", Rest: true},
	}
	placement := []Member{{Name: "m1", Labels: map[string]string{"region": "eu"}}, {Name: "m2", Labels: map[string]string{"region": "eu"}},
		{Name: "m3", Labels: map[string]string{"region": "eu"}}, {Name: "m4"}, {Name: "m5", Labels: map[string]string{"region": "eu"}}}
	got, err := ResolveWaves(spec, placement)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"m2"}, {"m1", "m3", "m5"}, {"m4"}}
	for i, w := range got {
		if len(w.Clusters) != len(want[i]) {
			t.Fatalf("wave %s has %v, want %v", w.Name, w.Clusters, want[i])
		}
		for j := range w.Clusters {
			if w.Clusters[j] != want[i][j] {
				t.Fatalf("wave %s has %v, want %v", w.Name, w.Clusters, want[i])
			}
		}
	}
	if got[0].MaxUnavailable != 1 || got[1].MaxUnavailable != 2 || got[2].MaxUnavailable != 1 {
		t.Errorf("maxUnavailable %d %d %d, want 1 (all of one), 2 (50%% of 3 rounded up), 1", got[0].MaxUnavailable, got[1].MaxUnavailable, got[2].MaxUnavailable)
	}
	// Without a rest wave, clusters no wave names go with the last.
	got, _ = ResolveWaves(spec[:2], placement)
	if c := got[1].Clusters; len(c) != 4 || c[2] != "m4" {
		t.Errorf("last wave %v, want m1 m3 m4 m5", c)
	}
}

func intstrPercent(s string) intstr.IntOrString { return intstr.FromString(s) }
