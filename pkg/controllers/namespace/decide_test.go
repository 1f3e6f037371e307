package namespace

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestDecide(t *testing.T) {
	t.Parallel()
	ns := func(deleting bool, finalizers ...corev1.FinalizerName) *corev1.Namespace {
		n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop"}, Spec: corev1.NamespaceSpec{Finalizers: finalizers}}
		if deleting {
			n.DeletionTimestamp = &metav1.Time{}
		}
		return n
	}
	cases := []struct {
		name string
		ns   *corev1.Namespace
		want action
	}{
		{"a live namespace is left alone", ns(false, corev1.FinalizerKubernetes), ignore},
		{"a deleted namespace with our finalizer is emptied", ns(true, corev1.FinalizerKubernetes, "other"), emptyNamespace},
		{"a deleted namespace without finalizers is deleted again", ns(true), deleteAgain},
		{"another party's finalizer is theirs to finish", ns(true, "other"), ignore},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := decide(c.ns); got != c.want {
				t.Errorf("decide = %v, want %v", got, c.want)
			}
		})
	}
}

func TestDeletableResources(t *testing.T) {
	t.Parallel()
	all := []string{"list", "deletecollection", "get"}
	lists := []*metav1.APIResourceList{
		{GroupVersion: "v1", APIResources: []metav1.APIResource{
			{Name: "events", Namespaced: true, Verbs: all},
			{Name: "configmaps", Namespaced: true, Verbs: all},
			{Name: "pods/status", Namespaced: true, Verbs: all},
			{Name: "namespaces", Namespaced: false, Verbs: all},
			{Name: "bindings", Namespaced: true, Verbs: []string{"create"}},
		}},
		{GroupVersion: "events.k8s.io/v1", APIResources: []metav1.APIResource{{Name: "events", Namespaced: true, Verbs: all}}},
		{GroupVersion: "apps/v1", APIResources: []metav1.APIResource{{Name: "deployments", Namespaced: true, Verbs: all}}},
	}
	want := []schema.GroupVersionResource{
		{Version: "v1", Resource: "configmaps"},
		{Group: "apps", Version: "v1", Resource: "deployments"},
		{Version: "v1", Resource: "events"},
		{Group: "events.k8s.io", Version: "v1", Resource: "events"},
	}
	if diff := cmp.Diff(want, deletableResources(lists)); diff != "" {
		t.Errorf("resources, Events last (-want +got):\n%s", diff)
	}
}

func TestLive(t *testing.T) {
	t.Parallel()
	now := metav1.Now()
	deleting := metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{DeletionTimestamp: &now}}
	cases := []struct {
		name  string
		items []metav1.PartialObjectMetadata
		want  int
	}{
		{"none", nil, 0},
		{"objects being deleted do not count", []metav1.PartialObjectMetadata{deleting, {}, deleting, {}}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := live(c.items); got != c.want {
				t.Errorf("live = %d, want %d", got, c.want)
			}
		})
	}
}
