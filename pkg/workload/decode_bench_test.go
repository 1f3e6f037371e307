package workload

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// BenchmarkDecode compares decoding a member Deployment whole with the slim
// decode the status, health and aggregation rules use.
func BenchmarkDecode(b *testing.B) {
	obj := benchDeployment(b)
	for _, c := range []struct {
		name   string
		decode func(*unstructured.Unstructured, any) error
	}{{"whole", decode}, {"slim", decodeSlim}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var out appsv1.Deployment
				if err := c.decode(obj, &out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchDeployment is a member Deployment as the status rules see it.
func benchDeployment(b *testing.B) *unstructured.Unstructured {
	labels := map[string]string{"app": "web"}
	d := &appsv1.Deployment{
		TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Generation: 2, Labels: labels,
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "mco", Operation: metav1.ManagedFieldsOperationApply, APIVersion: "apps/v1",
				FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:name":{}}}}}}}`)}}},
		Spec: appsv1.DeploymentSpec{Replicas: ptr[int32](3), Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: corev1.PodSpec{Containers: []corev1.Container{{
				Name: "nginx", Image: "nginx:1.25", Ports: []corev1.ContainerPort{{ContainerPort: 80}},
				Env: []corev1.EnvVar{{Name: "A", Value: "1"}, {Name: "B", Value: "2"}}}}}}},
		Status: appsv1.DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3, ObservedGeneration: 2},
	}
	raw, err := runtime.DefaultUnstructuredConverter.ToUnstructured(d)
	if err != nil {
		b.Fatal(err)
	}
	return &unstructured.Unstructured{Object: raw}
}

// BenchmarkObserve compares a member Deployment's status and health read
// apart (two decodings) with Observe (one).
func BenchmarkObserve(b *testing.B) {
	obj := benchDeployment(b)
	b.Run("apart", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ReflectStatus(obj); err != nil {
				b.Fatal(err)
			}
			_ = Health(obj)
		}
	})
	b.Run("observe", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := Observe(obj); err != nil {
				b.Fatal(err)
			}
		}
	})
}
