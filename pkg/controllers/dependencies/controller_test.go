package dependencies

import (
	"context"
	"reflect"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/generated/clientset/versioned/fake"
	worklisters "github.com/mco-org/mco/pkg/generated/listers/work/v1alpha2"
)

// TestAttachOnStaleCache: the dependency's binding exists on the server
// but not yet in the cache (created by the previous sync a moment ago);
// the workload's new clusters must still reach it.
func TestAttachOnStaleCache(t *testing.T) {
	existing := &workv1alpha2.ResourceBinding{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "cfg-configmap"},
		Spec: workv1alpha2.ResourceBindingSpec{
			Resource:   workv1alpha2.ObjectReference{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "cfg"},
			RequiredBy: []workv1alpha2.BindingSnapshot{{Namespace: "ns", Name: "web-deployment"}},
		},
	}
	client := fake.NewSimpleClientset(existing)
	empty := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	d := &Controller{bindings: &binding.Store{Client: client, RB: worklisters.NewResourceBindingLister(empty)}}

	web := binding.New(binding.Key{Namespace: "ns", Name: "web-deployment"})
	web.Spec.Clusters = []workv1alpha2.TargetCluster{{Name: "member1", Replicas: 2}}
	cm := &unstructured.Unstructured{}
	cm.SetAPIVersion("v1")
	cm.SetKind("ConfigMap")
	cm.SetNamespace("ns")
	cm.SetName("cfg")

	ctx := context.Background()
	if err := d.attach(ctx, binding.Key{Namespace: "ns", Name: "cfg-configmap"}, cm, web); err != nil {
		t.Fatalf("attach: %v", err)
	}
	got, err := client.WorkV1alpha2().ResourceBindings("ns").Get(ctx, "cfg-configmap", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []workv1alpha2.BindingSnapshot{{Namespace: "ns", Name: "web-deployment", Clusters: []workv1alpha2.TargetCluster{{Name: "member1"}}}}
	if len(got.Spec.RequiredBy) != 1 || len(got.Spec.RequiredBy[0].Clusters) != 1 || got.Spec.RequiredBy[0].Clusters[0].Name != "member1" {
		t.Fatalf("requiredBy = %+v, want %+v", got.Spec.RequiredBy, want)
	}
}

// TestReleaseStale: releasing a workload touches only the bindings whose
// requiredBy names it (found through requiredByIndex): another workload's
// entry stays, an attached binding nothing requires any more is deleted,
// and a binding a policy placed keeps existing without the entry.
func TestReleaseStale(t *testing.T) {
	rb := func(name string, placed bool, requirers ...string) *workv1alpha2.ResourceBinding {
		b := &workv1alpha2.ResourceBinding{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name}}
		if placed {
			b.Spec.Placement = &policyv1alpha1.Placement{}
		}
		for _, r := range requirers {
			b.Spec.RequiredBy = append(b.Spec.RequiredBy, workv1alpha2.BindingSnapshot{Namespace: "ns", Name: r})
		}
		return b
	}
	objs := []*workv1alpha2.ResourceBinding{
		rb("shared-configmap", false, "web-deployment", "api-deployment"),
		rb("only-web-configmap", false, "web-deployment"),
		rb("placed-secret", true, "web-deployment"),
		rb("other-configmap", false, "api-deployment"),
		rb("web-deployment", true),
	}
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{requiredByIndex: requiredByKeys})
	var runtimeObjs []runtime.Object
	for _, o := range objs {
		if err := indexer.Add(o); err != nil {
			t.Fatal(err)
		}
		runtimeObjs = append(runtimeObjs, o)
	}
	client := fake.NewSimpleClientset(runtimeObjs...)
	d := &Controller{bindings: &binding.Store{Client: client, RB: worklisters.NewResourceBindingLister(indexer)}, requirers: indexer}

	ctx := context.Background()
	if err := d.releaseStale(ctx, binding.Key{Namespace: "ns", Name: "web-deployment"}, nil); err != nil {
		t.Fatalf("releaseStale: %v", err)
	}
	requirers := func(name string) []string {
		got, err := client.WorkV1alpha2().ResourceBindings("ns").Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, r := range got.Spec.RequiredBy {
			out = append(out, r.Name)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		want []string // nil: deleted
	}{
		{"shared-configmap", []string{"api-deployment"}},
		{"only-web-configmap", nil},
		{"placed-secret", []string{}},
		{"other-configmap", []string{"api-deployment"}},
		{"web-deployment", []string{}},
	} {
		if got := requirers(tc.name); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: requiredBy %v, want %v (nil: deleted)", tc.name, got, tc.want)
		}
	}
	var writes []string
	for _, a := range client.Actions() {
		if a.GetVerb() != "get" && a.GetVerb() != "list" && a.GetVerb() != "watch" {
			writes = append(writes, a.GetVerb())
		}
	}
	if len(writes) != 3 {
		t.Errorf("writes %v, want 3 (two updates and a delete; bindings not requiring web untouched)", writes)
	}
}
