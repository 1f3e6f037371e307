package member

import (
	"runtime"
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
				FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:spec":{"f:replicas":{}}}`)}}},
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

// BenchmarkCopyRetained reports the heap a member Deployment as mco
// applies it (mco's labels and annotations, its status) holds once kept as
// a Copy, measured over a thousand copies kept at once, each decoded from
// the same protobuf.
func BenchmarkCopyRetained(b *testing.B) {
	three := int32(3)
	labels := map[string]string{"app": "app-00001", "bench.mco-org.github.io/scale": "true",
		"propagationpolicy.karmada.io/permanent-id": "a48dd664-35b5-4bbb-8577-ff7c930908a2",
		"work.karmada.io/permanent-id":              "59eb1aa9-7f44-4529-9dad-e4324f2f31c5"}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "app-00001", Namespace: "scale", Generation: 1, ResourceVersion: "281191",
			UID: "21aaf8ef-6328-484c-97b1-d62e9b12a56a", Labels: labels,
			Annotations: map[string]string{
				"propagationpolicy.karmada.io/name":               "deployments",
				"propagationpolicy.karmada.io/namespace":          "scale",
				"resourcetemplate.karmada.io/generation":          "2",
				"resourcetemplate.karmada.io/managed-annotations": "propagationpolicy.karmada.io/name,propagationpolicy.karmada.io/namespace",
				"resourcetemplate.karmada.io/managed-labels":      "app,bench.mco-org.github.io/scale,propagationpolicy.karmada.io/permanent-id",
				"resourcetemplate.karmada.io/uid":                 "34f68b0e-101a-4808-84e1-c369dd3bb34d",
				"work.karmada.io/conflict-resolution":             "abort",
				"work.karmada.io/name":                            "app-00001-7f95c8659d",
				"work.karmada.io/namespace":                       "karmada-es-member02",
			}},
		Spec: appsv1.DeploymentSpec{Replicas: &three, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "app-00001"}},
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "registry.k8s.io/pause:3.10"}}}}},
		Status: appsv1.DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3, ObservedGeneration: 1,
			Conditions: []appsv1.DeploymentCondition{
				{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "MinimumReplicasAvailable", Message: "Deployment has minimum availability."},
				{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: "NewReplicaSetAvailable", Message: `ReplicaSet "app-00001-86bcdbbddc" has successfully progressed.`}}},
	}
	gvk := appsv1.SchemeGroupVersion.WithKind("Deployment")
	transform := slimAppliedTyped(gvk)
	// Each copy is made from its own decoding of the member's protobuf, as
	// the informer's are (a deep copy would share the strings).
	wire, err := d.Marshal()
	if err != nil {
		b.Fatal(err)
	}
	const kept = 1000
	copies := make([]any, kept)
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range copies {
			decoded := &appsv1.Deployment{}
			if err := decoded.Unmarshal(wire); err != nil {
				b.Fatal(err)
			}
			c, err := transform(decoded)
			if err != nil {
				b.Fatal(err)
			}
			copies[i] = c
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/kept, "retained-B/copy")
		clear(copies)
	}
}
