package resource

import (
	"context"
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
)

func deployment(generation int64) *appsv1.Deployment {
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Generation: generation,
			Labels: map[string]string{"app": "web"}, Annotations: map[string]string{"team": "a"}},
		Spec:   appsv1.DeploymentSpec{Replicas: ptr.To[int32](2)},
		Status: appsv1.DeploymentStatus{Replicas: 2},
	}
}

func TestGenerationOnCreate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		policy GenerationPolicy
		sent   int64
		want   int64
	}{
		{"A kind tracked by spec starts at generation 1.", GenerationOnSpecChange, 0, 1},
		{"A kind tracked by spec ignores the generation the client sent.", GenerationOnSpecChange, 7, 1},
		{"A kind tracked by spec and annotations starts at generation 1.", GenerationOnSpecOrAnnotationChange, 0, 1},
		{"A kind without generation gets none.", GenerationNone, 0, 0},
		{"A kind without generation keeps what the client sent, as kube-apiserver does.", GenerationNone, 7, 7},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := newStrategy(nil, &Spec{Generation: tc.policy, HasStatus: true})
			obj := deployment(tc.sent)
			st.PrepareForCreate(context.Background(), obj)
			if obj.Generation != tc.want {
				t.Errorf("generation = %d, want %d", obj.Generation, tc.want)
			}
			if obj.Status.Replicas != 0 {
				t.Errorf("status not cleared on create: %+v", obj.Status)
			}
		})
	}
}

func TestGenerationOnUpdate(t *testing.T) {
	t.Parallel()
	spec := func(d *appsv1.Deployment) { d.Spec.Replicas = ptr.To[int32](3) }
	annotation := func(d *appsv1.Deployment) { d.Annotations["team"] = "b" }
	label := func(d *appsv1.Deployment) { d.Labels["tier"] = "front" }
	status := func(d *appsv1.Deployment) { d.Status.ReadyReplicas = 2 }
	sentGeneration := func(d *appsv1.Deployment) { d.Generation = 9 }
	emptyAnnotations := func(d *appsv1.Deployment) { d.Annotations = map[string]string{} }
	cases := []struct {
		name   string
		policy GenerationPolicy
		oldAnn map[string]string
		change func(*appsv1.Deployment)
		want   int64
	}{
		{"A spec change bumps a kind tracked by spec.", GenerationOnSpecChange, nil, spec, 4},
		{"An annotation change does not bump a kind tracked by spec.", GenerationOnSpecChange, nil, annotation, 3},
		{"A label change does not bump a kind tracked by spec.", GenerationOnSpecChange, nil, label, 3},
		{"A status sent to the main resource is dropped and does not bump.", GenerationOnSpecChange, nil, status, 3},
		{"A generation sent by the client is replaced by the stored one.", GenerationOnSpecChange, nil, sentGeneration, 3},
		{"A spec change bumps a Deployment.", GenerationOnSpecOrAnnotationChange, nil, spec, 4},
		{"An annotation change bumps a Deployment.", GenerationOnSpecOrAnnotationChange, nil, annotation, 4},
		{"A label change does not bump a Deployment.", GenerationOnSpecOrAnnotationChange, nil, label, 3},
		{"Empty and missing annotations are the same to a Deployment.", GenerationOnSpecOrAnnotationChange, map[string]string{}, func(d *appsv1.Deployment) { d.Annotations = nil }, 3},
		{"Removing every annotation bumps a Deployment.", GenerationOnSpecOrAnnotationChange, nil, emptyAnnotations, 4},
		{"A spec change leaves a kind without generation at its stored value.", GenerationNone, nil, spec, 3},
		{"A generation sent for a kind without generation is replaced by the stored one.", GenerationNone, nil, sentGeneration, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := newStrategy(nil, &Spec{Generation: tc.policy, HasStatus: true})
			old := deployment(3)
			if tc.oldAnn != nil {
				old.Annotations = tc.oldAnn
			}
			obj := old.DeepCopy()
			tc.change(obj)
			st.PrepareForUpdate(context.Background(), obj, old)
			if obj.Generation != tc.want {
				t.Errorf("generation = %d, want %d", obj.Generation, tc.want)
			}
			if !reflect.DeepEqual(obj.Status, old.Status) {
				t.Errorf("status changed through the main resource: %+v", obj.Status)
			}
		})
	}
}

func TestConfigMapNeverGetsGeneration(t *testing.T) {
	t.Parallel()
	st := newStrategy(nil, &Spec{Generation: GenerationNone})
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cfg"}, Data: map[string]string{"k": "v"}}
	st.PrepareForCreate(context.Background(), cm)
	changed := cm.DeepCopy()
	changed.Data["k"] = "w"
	st.PrepareForUpdate(context.Background(), changed, cm)
	if cm.Generation != 0 || changed.Generation != 0 {
		t.Errorf("generation after create %d, after a data change %d; want 0 and 0", cm.Generation, changed.Generation)
	}
}

func TestOnCreateRunsAfterDefaulting(t *testing.T) {
	t.Parallel()
	var order []string
	st := newStrategy(nil, &Spec{
		Default:  func(runtime.Object) { order = append(order, "default") },
		OnCreate: func(runtime.Object) { order = append(order, "onCreate") },
	})
	st.PrepareForCreate(context.Background(), deployment(0))
	if len(order) != 2 || order[0] != "default" || order[1] != "onCreate" {
		t.Errorf("hooks ran as %v, want [default onCreate]", order)
	}
	order = nil
	old := deployment(1)
	st.PrepareForUpdate(context.Background(), old.DeepCopy(), old)
	if len(order) != 1 || order[0] != "default" {
		t.Errorf("on update hooks ran as %v, want [default] only", order)
	}
}
