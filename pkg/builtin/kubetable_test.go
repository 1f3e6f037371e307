package builtin

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubernetes/pkg/registry/core/pod"
)

func testPod(name, node string) corev1.Pod {
	return corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "app"},
		Spec:       corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "c", Image: "nginx"}}},
		Status:     corev1.PodStatus{Phase: corev1.PodRunning},
	}
}

// TestKubeTable: tables come from Kubernetes' printers, and each row keeps
// the served object (what a client asking for objects gets back).
func TestKubeTable(t *testing.T) {
	t.Parallel()
	one, two := testPod("one", "n1"), testPod("two", "n2")
	cases := []struct {
		name string
		obj  runtime.Object
		rows int
	}{
		{"an object", &one, 1},
		{"a list", &corev1.PodList{Items: []corev1.Pod{one, two}}, 2},
	}
	for _, tc := range cases {
		table, err := kubeTable{}.ConvertToTable(context.Background(), tc.obj, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var names []string
		for _, c := range table.ColumnDefinitions {
			names = append(names, c.Name)
		}
		if len(names) < 5 || names[0] != "Name" || names[1] != "Ready" || names[2] != "Status" {
			t.Errorf("%s: columns %v, want kube's pod columns", tc.name, names)
		}
		if len(table.Rows) != tc.rows {
			t.Fatalf("%s: %d rows, want %d", tc.name, len(table.Rows), tc.rows)
		}
		for _, r := range table.Rows {
			if _, ok := r.Object.Object.(*corev1.Pod); !ok {
				t.Errorf("%s: row object %T, want the served *v1.Pod", tc.name, r.Object.Object)
			}
		}
	}
}

// TestKubeFields: field selectors are Kubernetes' own for the kind.
func TestKubeFields(t *testing.T) {
	t.Parallel()
	p := testPod("one", "n1")
	fs := kubeFields(pod.GetAttrs)(&p)
	for k, want := range map[string]string{"spec.nodeName": "n1", "status.phase": "Running", "metadata.name": "one"} {
		if got := fs[k]; got != want {
			t.Errorf("%s = %q, want %q (all: %v)", k, got, want, fs)
		}
	}
}
