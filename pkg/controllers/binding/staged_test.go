package binding

import (
	"encoding/json"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/cache"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	"github.com/mco-org/mco/pkg/binding"
	rolloutlisters "github.com/mco-org/mco/pkg/generated/listers/rollout/v1alpha1"
	"github.com/mco-org/mco/pkg/rollout"
)

func stagedDeployment(image string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"namespace": "shop", "name": "web",
			"annotations": map[string]any{rolloutv1alpha1.ChangeCauseAnnotation: "cause of " + image}},
		"spec": map[string]any{"replicas": int64(4), "template": map[string]any{"spec": map[string]any{
			"containers": []any{map[string]any{"name": "web", "image": image}}}}},
	}}
}

func revisionOf(t *testing.T, rev int64, tmpl *unstructured.Unstructured) *appsv1.ControllerRevision {
	content := rollout.Content(tmpl)
	hash, err := rollout.Hash(content)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(content)
	return &appsv1.ControllerRevision{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: rollout.RevisionName("web-deployment", hash),
			Labels: map[string]string{rolloutv1alpha1.RolloutLabel: "web-deployment", rolloutv1alpha1.RevisionHashLabel: hash}},
		Revision: rev, Data: runtime.RawExtension{Raw: raw},
	}
}

// TestStagedTemplates: each cluster gets the revision its Rollout gives it,
// with the live replicas; a cluster given the template's current content
// gets the template as it is; a cluster not placed yet gets nothing.
func TestStagedTemplates(t *testing.T) {
	old, live := stagedDeployment("nginx:1"), stagedDeployment("nginx:2")
	live.SetAnnotations(map[string]string{rolloutv1alpha1.ChangeCauseAnnotation: "annotated after the change"})
	revisions := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	rollouts := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	_ = revisions.Add(revisionOf(t, 1, old))
	_ = revisions.Add(revisionOf(t, 2, stagedDeployment("nginx:2")))
	_ = rollouts.Add(&rolloutv1alpha1.Rollout{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-deployment"},
		Status: rolloutv1alpha1.RolloutStatus{CurrentRevision: 2, Clusters: []rolloutv1alpha1.ClusterRevision{
			{Name: "member2", Revision: 2}, {Name: "member1", Revision: 1}}}})

	s, err := stagedOf(rolloutlisters.NewRolloutLister(rollouts), appslisters.NewControllerRevisionLister(revisions),
		binding.Key{Namespace: "shop", Name: "web-deployment"}, live)
	if err != nil || s == nil {
		t.Fatalf("stagedOf: %v, %v", s, err)
	}
	image := func(o *unstructured.Unstructured) string {
		c, _, _ := unstructured.NestedSlice(o.Object, "spec", "template", "spec", "containers")
		return c[0].(map[string]any)["image"].(string)
	}
	got, rev, ok := s.template(live, "member1")
	if !ok || rev != "1" || image(got) != "nginx:1" || got.GetAnnotations()[rolloutv1alpha1.ChangeCauseAnnotation] != "cause of nginx:1" {
		t.Errorf("member1: %v revision %q image %s annotations %v; want revision 1's content", ok, rev, image(got), got.GetAnnotations())
	}
	if r, _, _ := unstructured.NestedInt64(got.Object, "spec", "replicas"); r != 4 {
		t.Errorf("member1 replicas %d, want the live 4", r)
	}
	got, rev, ok = s.template(live, "member2")
	if !ok || rev != "2" || got.GetAnnotations()[rolloutv1alpha1.ChangeCauseAnnotation] != "annotated after the change" {
		t.Errorf("member2: %v revision %q annotations %v; want the live template", ok, rev, got.GetAnnotations())
	}
	if _, _, ok := s.template(live, "member3"); ok {
		t.Error("member3, which the rollout has not placed, got a template")
	}
}
