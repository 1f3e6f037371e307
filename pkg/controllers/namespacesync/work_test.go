package namespacesync

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/testing/builders"
	"github.com/mco-org/mco/pkg/works"
)

func manifestOf(t *testing.T, w *workv1alpha1.Work) map[string]any {
	t.Helper()
	if len(w.Spec.Workload.Manifests) != 1 {
		t.Fatalf("work has %d manifests, want 1", len(w.Spec.Workload.Manifests))
	}
	var m map[string]any
	if err := json.Unmarshal(w.Spec.Workload.Manifests[0].Raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestDesiredWork(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		ns   *corev1.Namespace
		want map[string]any
	}{
		{"a bare namespace is carried by name alone",
			&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop"}},
			map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "shop"}}},
		{"labels and annotations travel, server metadata, spec and status do not",
			&corev1.Namespace{
				ObjectMeta: metav1.ObjectMeta{Name: "shop", UID: "u1", ResourceVersion: "7", Generation: 2,
					CreationTimestamp: metav1.Now(), Finalizers: []string{"x"},
					Labels:        map[string]string{"team": "blue", corev1.LabelMetadataName: "shop"},
					Annotations:   map[string]string{"owner": "ops", corev1.LastAppliedConfigAnnotation: "{}"},
					ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl"}}},
				Spec:   corev1.NamespaceSpec{Finalizers: []corev1.FinalizerName{corev1.FinalizerKubernetes}},
				Status: corev1.NamespaceStatus{Phase: corev1.NamespaceActive},
			},
			map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "shop",
				"labels": map[string]any{"team": "blue"}, "annotations": map[string]any{"owner": "ops"}}}},
		{"a namespace whose only annotation is kubectl's last-applied gets none",
			&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop",
				Annotations: map[string]string{corev1.LastAppliedConfigAnnotation: "{}"}}},
			map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "shop"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w, err := DesiredWork(c.ns, "member1")
			if err != nil {
				t.Fatal(err)
			}
			if w.Namespace != "karmada-es-member1" || w.Name != names.Work("Namespace", "shop", "") {
				t.Errorf("work %s/%s, want karmada-es-member1/%s", w.Namespace, w.Name, names.Work("Namespace", "shop", ""))
			}
			if diff := cmp.Diff(map[string]string{WorkLabel: "shop"}, w.Labels); diff != "" {
				t.Errorf("labels (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.want, manifestOf(t, w)); diff != "" {
				t.Errorf("manifest (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPlan(t *testing.T) {
	t.Parallel()
	shop := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop"}}
	leaving := builders.NewCluster("member3").Build()
	leaving.DeletionTimestamp = &metav1.Time{}
	existing := func(cluster string) *workv1alpha1.Work {
		w, err := DesiredWork(shop, cluster)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	deleting := existing("member2")
	deleting.DeletionTimestamp = &metav1.Time{}
	m1, m2 := builders.NewCluster("member1").Build(), builders.NewCluster("member2").Build()
	key := func(ws []*workv1alpha1.Work) []string {
		out := []string{}
		for _, w := range ws {
			out = append(out, w.Namespace)
		}
		return out
	}
	cases := []struct {
		name        string
		propagate   bool
		terminating bool
		clusters    []*clusterv1alpha1.Cluster
		have        []*workv1alpha1.Work
		want, drop  []string
	}{
		{"a propagating namespace gets a work in every cluster, in cluster order",
			true, false, []*clusterv1alpha1.Cluster{m2, m1}, nil,
			[]string{"karmada-es-member1", "karmada-es-member2"}, []string{}},
		{"a cluster being deleted gets no work and its work is removed",
			true, false, []*clusterv1alpha1.Cluster{m1, leaving}, []*workv1alpha1.Work{existing("member1"), existing("member3")},
			[]string{"karmada-es-member1"}, []string{"karmada-es-member3"}},
		{"the work of a cluster that is gone is removed",
			true, false, []*clusterv1alpha1.Cluster{m1}, []*workv1alpha1.Work{existing("member1"), existing("gone")},
			[]string{"karmada-es-member1"}, []string{"karmada-es-gone"}},
		{"a namespace that stops propagating loses every work",
			false, false, []*clusterv1alpha1.Cluster{m1, m2}, []*workv1alpha1.Work{existing("member1"), existing("member2")},
			[]string{}, []string{"karmada-es-member1", "karmada-es-member2"}},
		{"a work already being deleted is not deleted again",
			false, false, []*clusterv1alpha1.Cluster{m1, m2}, []*workv1alpha1.Work{existing("member1"), deleting},
			[]string{}, []string{"karmada-es-member1"}},
		{"no clusters means no works",
			true, false, nil, nil, []string{}, []string{}},
		{"a terminating namespace keeps its works until it is gone",
			false, true, []*clusterv1alpha1.Cluster{m1, m2}, []*workv1alpha1.Work{existing("member1"), existing("member2")},
			[]string{}, []string{}},
		{"a terminating namespace gets no work in a new cluster",
			false, true, []*clusterv1alpha1.Cluster{m1, m2}, []*workv1alpha1.Work{existing("member1")},
			[]string{}, []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ns := shop
			if c.terminating {
				ns = shop.DeepCopy()
				ns.DeletionTimestamp = &metav1.Time{}
			}
			want, stale, err := plan(ns, c.propagate, c.clusters, c.have)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, key(want)); diff != "" {
				t.Errorf("works to write (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.drop, key(stale)); diff != "" {
				t.Errorf("works to delete (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMergeWork(t *testing.T) {
	t.Parallel()
	labelled := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop", Labels: map[string]string{"team": "blue"}}}
	want, err := DesiredWork(labelled, "member1")
	if err != nil {
		t.Fatal(err)
	}
	same := want.DeepCopy()
	same.Labels[workv1alpha1.WorkPermanentIDLabel] = "id-1"
	same.Spec.Workload.Manifests[0].Raw = []byte(`{"kind":"Namespace","apiVersion":"v1","metadata":{"labels":{"team":"blue"},"name":"shop"}}`)
	stale := same.DeepCopy()
	stale.Spec.Workload.Manifests = []workv1alpha1.Manifest{{RawExtension: runtime.RawExtension{Raw: []byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"shop"}}`)}}}
	suspended := same.DeepCopy()
	suspended.Spec.SuspendDispatching = ptr.To(true)
	unlabelled := same.DeepCopy()
	delete(unlabelled.Labels, WorkLabel)
	cases := []struct {
		name        string
		have        *workv1alpha1.Work
		wantChanged bool
	}{
		{"a work with the same manifest in other bytes is left alone", same, false},
		{"a work with an old manifest is updated", stale, true},
		{"a work suspended by hand is resumed", suspended, true},
		{"a work that lost its label gets it back", unlabelled, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			have := c.have.DeepCopy()
			if got := works.Merge(have, want); got != c.wantChanged {
				t.Fatalf("changed = %v, want %v", got, c.wantChanged)
			}
			if have.Labels[workv1alpha1.WorkPermanentIDLabel] != "id-1" || have.Labels[WorkLabel] != "shop" {
				t.Errorf("labels %v: the permanent id must stay and the namespace label be set", have.Labels)
			}
			if !works.SpecEqual(have.Spec, want.Spec) {
				t.Errorf("spec after merge differs from the desired one")
			}
		})
	}
}
