package hpareplicas

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/template"
	"github.com/mco-org/mco/pkg/testing/builders"
	"github.com/mco-org/mco/pkg/workload"
)

func hpa(name, target string, claimed, deleting bool) *autoscalingv2.HorizontalPodAutoscaler {
	h := &autoscalingv2.HorizontalPodAutoscaler{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop"},
		Spec:       autoscalingv2.HorizontalPodAutoscalerSpec{ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: target}},
	}
	if claimed {
		h.Labels = map[string]string{policyv1alpha1.PropagationPolicyPermanentIDLabel: "id"}
	}
	if deleting {
		h.DeletionTimestamp = &metav1.Time{}
	}
	return h
}

func TestMarked(t *testing.T) {
	t.Parallel()
	web := template.Key{GVK: schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, Namespace: "shop", Name: "web"}
	cases := []struct {
		name string
		hpas []*autoscalingv2.HorizontalPodAutoscaler
		want bool
	}{
		{"A propagated autoscaler marks its target.", []*autoscalingv2.HorizontalPodAutoscaler{hpa("a", "web", true, false)}, true},
		{"An autoscaler no policy claims does not.", []*autoscalingv2.HorizontalPodAutoscaler{hpa("a", "web", false, false)}, false},
		{"An autoscaler being deleted does not.", []*autoscalingv2.HorizontalPodAutoscaler{hpa("a", "web", true, true)}, false},
		{"An autoscaler of another target does not.", []*autoscalingv2.HorizontalPodAutoscaler{hpa("a", "api", true, false)}, false},
		{"One of several is enough.", []*autoscalingv2.HorizontalPodAutoscaler{hpa("a", "api", true, false), hpa("b", "web", true, false)}, true},
		{"No autoscaler: no mark.", nil, false},
	}
	for _, tc := range cases {
		if got := marked(web, tc.hpas); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestSyncedReplicas(t *testing.T) {
	t.Parallel()
	dep := func(spec, gen, observed, replicas, updated int32) *appsv1.Deployment {
		return &appsv1.Deployment{
			ObjectMeta: metav1.ObjectMeta{Generation: int64(gen)},
			Spec:       appsv1.DeploymentSpec{Replicas: &spec},
			Status:     appsv1.DeploymentStatus{ObservedGeneration: int64(observed), Replicas: replicas, UpdatedReplicas: updated},
		}
	}
	cases := []struct {
		name   string
		d      *appsv1.Deployment
		want   int32
		wantOK bool
	}{
		{"The members scaled up: the template follows their sum.", dep(2, 3, 3, 5, 5), 5, true},
		{"The members scaled down.", dep(6, 3, 3, 4, 4), 4, true},
		{"In step: nothing to do.", dep(4, 3, 3, 4, 4), 0, false},
		{"A member has not caught up with the generation.", dep(2, 4, 3, 5, 5), 0, false},
		{"A rollout is in flight (surge pods).", dep(4, 3, 3, 5, 4), 0, false},
		{"No member reports replicas.", dep(2, 3, 3, 0, 0), 0, false},
	}
	for _, tc := range cases {
		got, ok := syncedReplicas(tc.d)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("%s: %d %v, want %d %v", tc.name, got, ok, tc.want, tc.wantOK)
		}
	}
}

func TestMembersSettled(t *testing.T) {
	t.Parallel()
	item := func(cluster string, applied bool, s *workload.DeploymentStatus) workv1alpha2.AggregatedStatusItem {
		it := builders.Report(t, cluster, s)
		it.Applied = applied
		return it
	}
	st := func(replicas, updated int32, gen, observed, templateGen int64) *workload.DeploymentStatus {
		return &workload.DeploymentStatus{Replicas: replicas, UpdatedReplicas: updated, Generation: gen, ObservedGeneration: observed, ResourceTemplateGeneration: templateGen}
	}
	spec := &workv1alpha2.ResourceBindingSpec{Clusters: []workv1alpha2.TargetCluster{{Name: "m1", Replicas: 1}, {Name: "m2", Replicas: 1}}}
	cases := []struct {
		name  string
		items []workv1alpha2.AggregatedStatusItem
		want  bool
	}{
		{"Both members report settled copies.", []workv1alpha2.AggregatedStatusItem{item("m1", true, st(1, 1, 2, 2, 3)), item("m2", true, st(3, 3, 1, 1, 3))}, true},
		{"A member has not reported yet.", []workv1alpha2.AggregatedStatusItem{item("m2", true, st(1, 1, 1, 1, 3))}, false},
		{"A member's copy is not applied.", []workv1alpha2.AggregatedStatusItem{item("m1", false, st(1, 1, 1, 1, 3)), item("m2", true, st(1, 1, 1, 1, 3))}, false},
		{"A member reports no status.", []workv1alpha2.AggregatedStatusItem{item("m1", true, nil), item("m2", true, st(1, 1, 1, 1, 3))}, false},
		{"A member's copy has no pods yet (its ReplicaSet was just created).", []workv1alpha2.AggregatedStatusItem{item("m1", true, st(0, 0, 1, 1, 3)), item("m2", true, st(1, 1, 1, 1, 3))}, false},
		{"A member's controller trails its copy.", []workv1alpha2.AggregatedStatusItem{item("m1", true, st(1, 1, 2, 1, 3)), item("m2", true, st(1, 1, 1, 1, 3))}, false},
		{"A member runs an older template.", []workv1alpha2.AggregatedStatusItem{item("m1", true, st(1, 1, 1, 1, 2)), item("m2", true, st(1, 1, 1, 1, 3))}, false},
		{"A member is mid-rollout.", []workv1alpha2.AggregatedStatusItem{item("m1", true, st(2, 1, 1, 1, 3)), item("m2", true, st(1, 1, 1, 1, 3))}, false},
	}
	for _, tc := range cases {
		if got := membersSettled(spec, &workv1alpha2.ResourceBindingStatus{AggregatedStatus: tc.items}, 3); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if membersSettled(&workv1alpha2.ResourceBindingSpec{}, &workv1alpha2.ResourceBindingStatus{}, 3) {
		t.Error("A binding placed nowhere: settled, want not")
	}
}
