package hpareplicas

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/template"
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
