package member

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/pkg/workload"
)

func TestSlimPodKeepsWhatItRequests(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	res := func(cpu, mem string) corev1.ResourceRequirements {
		return corev1.ResourceRequirements{Requests: corev1.ResourceList{
			corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(mem)}}
	}
	meta := metav1.ObjectMeta{Name: "p", Namespace: "ns", Labels: map[string]string{"app": "x"},
		ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl"}}}
	tests := []struct {
		name string
		pod  corev1.Pod
	}{
		{"containers", corev1.Pod{ObjectMeta: meta, Spec: corev1.PodSpec{NodeName: "n1",
			Containers: []corev1.Container{{Name: "a", Image: "nginx", Resources: res("100m", "64Mi"),
				Env: []corev1.EnvVar{{Name: "K", Value: "V"}}}, {Name: "b", Resources: res("1", "1Gi")}}},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionTrue}, {Type: corev1.PodReady, Status: corev1.ConditionTrue}}}}},
		{"init containers and sidecars", corev1.Pod{ObjectMeta: meta, Spec: corev1.PodSpec{
			InitContainers: []corev1.Container{{Name: "init", Resources: res("2", "64Mi")},
				{Name: "sidecar", RestartPolicy: &always, Resources: res("500m", "128Mi")}},
			Containers: []corev1.Container{{Name: "a", Resources: res("100m", "64Mi")}}},
			Status: corev1.PodStatus{Phase: corev1.PodPending}}},
		{"pod-level resources and overhead", corev1.Pod{ObjectMeta: meta, Spec: corev1.PodSpec{
			Resources:  &corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("3")}},
			Overhead:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("10Mi")},
			Containers: []corev1.Container{{Name: "a", Resources: res("100m", "64Mi")}}},
			Status: corev1.PodStatus{Phase: corev1.PodSucceeded}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			full := tt.pod.DeepCopy()
			out, err := slimTyped(full)
			if err != nil {
				t.Fatal(err)
			}
			slim := out.(*corev1.Pod)
			if want, got := workload.PodRequests(&tt.pod.Spec), workload.PodRequests(&slim.Spec); !apiequality.Semantic.DeepEqual(want, got) {
				t.Errorf("requests %v, want %v", got, want)
			}
			if slim.Spec.NodeName != tt.pod.Spec.NodeName || slim.Status.Phase != tt.pod.Status.Phase ||
				slim.Name != "p" || slim.Namespace != "ns" {
				t.Errorf("lost node, phase or identity: %+v", slim)
			}
			if slim.Labels["app"] != "x" || len(slim.ManagedFields) > 0 {
				t.Errorf("lost its labels or kept its managed fields: %+v", slim)
			}
			ready := 0
			for _, c := range tt.pod.Status.Conditions {
				if c.Type == corev1.PodReady {
					ready++
				}
			}
			if len(slim.Status.Conditions) != ready || (ready == 1 && slim.Status.Conditions[0].Type != corev1.PodReady) {
				t.Errorf("conditions %+v, want the Ready condition alone of %+v", slim.Status.Conditions, tt.pod.Status.Conditions)
			}
			for _, c := range slim.Spec.Containers {
				if c.Image != "" || len(c.Env) > 0 {
					t.Errorf("container %s kept image or env", c.Name)
				}
			}
		})
	}
}

func TestSlimNode(t *testing.T) {
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1", Labels: map[string]string{"a": "b"}},
		Spec: corev1.NodeSpec{Unschedulable: true},
		Status: corev1.NodeStatus{
			Allocatable: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("8")},
			Conditions:  []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Message: "kubelet is posting ready status"}},
			Images:      []corev1.ContainerImage{{Names: []string{"nginx"}, SizeBytes: 1}},
		}}
	out, err := slimTyped(n.DeepCopy())
	if err != nil {
		t.Fatal(err)
	}
	slim := out.(*corev1.Node)
	want := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}, Spec: corev1.NodeSpec{Unschedulable: true},
		Status: corev1.NodeStatus{Allocatable: n.Status.Allocatable,
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}}}
	if !apiequality.Semantic.DeepEqual(slim, want) {
		t.Errorf("got %+v, want %+v", slim, want)
	}
}
