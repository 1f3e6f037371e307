package member

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/pkg/protowatch"
)

// BenchmarkSlimApplied compares the two ways a member Deployment decoded
// from protobuf becomes a Copy: through an unstructured map (the JSON
// informers' transform after a conversion) and straight from the Go type.
// Each run includes a deep copy of the input, which both transforms change.
func BenchmarkSlimApplied(b *testing.B) {
	labels := map[string]string{"app": "web"}
	three := int32(3)
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Generation: 2, ResourceVersion: "12", Labels: labels,
			Annotations: map[string]string{"work.karmada.io/name": "web-abc", "work.karmada.io/namespace": "karmada-es-m1"},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "mco", Operation: metav1.ManagedFieldsOperationApply, APIVersion: "apps/v1",
				FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{"f:replicas":{}}}`)}}}},
		Spec: appsv1.DeploymentSpec{Replicas: &three, Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: corev1.PodSpec{Containers: []corev1.Container{{
				Name: "nginx", Image: "nginx:1.25", Ports: []corev1.ContainerPort{{ContainerPort: 80}}}}}}},
		Status: appsv1.DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3, ObservedGeneration: 2},
	}
	gvk := appsv1.SchemeGroupVersion.WithKind("Deployment")
	for _, c := range []struct {
		name      string
		transform func(any) (any, error)
	}{
		{"via unstructured", protowatch.Unstructured(gvk, slimApplied)},
		{"typed", protowatch.OfType(gvk, slimAppliedTyped(gvk))},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.transform(d.DeepCopy()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
