package dependencies

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/cache"

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
