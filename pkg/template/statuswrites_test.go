package template

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	dynamicfake "k8s.io/client-go/dynamic/fake"
)

func TestStatusWrites(t *testing.T) {
	t.Parallel()
	s := newStatusWrites()
	cases := []struct {
		name string
		do   func()
		rv   string
		want string
	}{
		{"a resourceVersion no status write produced is its own", func() {}, "10", "10"},
		{"a status write leads back to the version before it", func() { s.record("u", "10", "11") }, "11", "10"},
		{"a chain of status writes leads back to the first version", func() { s.record("u", "11", "12") }, "12", "10"},
		{"a spec change after the writes stands for itself", func() {}, "13", "13"},
		{"a status write after a spec change leads back to the spec change", func() { s.record("u", "13", "14") }, "14", "13"},
		{"another template is unaffected", func() {}, "14", "14"},
	}
	for i, c := range cases {
		c.do()
		uid := "u"
		if i == len(cases)-1 {
			uid = "other"
		}
		if got := s.effective(types.UID(uid), c.rv); got != c.want {
			t.Errorf("%s: Effective(%s) = %s, want %s", c.name, c.rv, got, c.want)
		}
	}
}

// TestStatusWritesGoWithTheirTemplate: a deleted template's entry is
// forgotten, through the kind's informer.
func TestStatusWritesGoWithTheirTemplate(t *testing.T) {
	t.Parallel()
	gvr := schema.GroupVersionResource{Group: "batch", Version: "v1", Resource: "jobs"}
	client := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{gvr: "JobList"})
	r := New(client, 0, Resource{GVR: gvr, GVK: schema.GroupVersionKind{Group: "batch", Version: "v1", Kind: "Job"}, Namespaced: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r.Start(ctx)
	job := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "batch/v1", "kind": "Job",
		"metadata": map[string]any{"name": "once", "namespace": "default", "uid": "job-1"}}}
	jobs := client.Resource(gvr).Namespace("default")
	if _, err := jobs.Create(ctx, job, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	lister, _ := r.Lister(r.Kinds()[0])
	waitFor(t, "the informer has the Job", func() bool { _, err := lister.ByNamespace("default").Get("once"); return err == nil })
	r.RecordStatusWrite("job-1", "1", "2")
	if got := r.statusWrites.len(); got != 1 {
		t.Fatalf("%d entries after a status write, want 1", got)
	}
	if err := jobs.Delete(ctx, "once", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the entry forgotten once the Job is deleted", func() bool { return r.statusWrites.len() == 0 })
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	err := wait.PollUntilContextTimeout(context.Background(), 10*time.Millisecond, 10*time.Second, true,
		func(context.Context) (bool, error) { return cond(), nil })
	if err != nil {
		t.Fatalf("%s: not within 10s: %v", what, err)
	}
}
