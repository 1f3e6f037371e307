package namespace

import (
	"context"
	"errors"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	discoveryfake "k8s.io/client-go/discovery/fake"
	metadatafake "k8s.io/client-go/metadata/fake"
	clienttesting "k8s.io/client-go/testing"
)

// preferred is a fake discovery that serves fixed namespaced resources.
type preferred struct {
	*discoveryfake.FakeDiscovery
	lists []*metav1.APIResourceList
}

func (p preferred) ServerPreferredNamespacedResources() ([]*metav1.APIResourceList, error) {
	return p.lists, nil
}

// TestDeleteContentGoesOnPastAFailingKind: a kind whose delete fails is
// reported, and the kinds after it are deleted all the same.
func TestDeleteContentGoesOnPastAFailingKind(t *testing.T) {
	t.Parallel()
	all := []string{"list", "deletecollection"}
	lists := []*metav1.APIResourceList{{GroupVersion: "v1", APIResources: []metav1.APIResource{
		{Name: "events", Namespaced: true, Verbs: all},
		{Name: "configmaps", Namespaced: true, Verbs: all},
		{Name: "secrets", Namespaced: true, Verbs: all},
	}}}
	object := func(kind, name string) *metav1.PartialObjectMetadata {
		return &metav1.PartialObjectMetadata{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: kind},
			ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: name},
		}
	}
	scheme := metadatafake.NewTestScheme()
	for _, kind := range []string{"Event", "ConfigMap", "Secret"} {
		scheme.AddKnownTypeWithName(schema.GroupVersionKind{Version: "v1", Kind: kind}, &metav1.PartialObjectMetadata{})
		scheme.AddKnownTypeWithName(schema.GroupVersionKind{Version: "v1", Kind: kind + "List"}, &metav1.PartialObjectMetadataList{})
	}
	meta := metadatafake.NewSimpleMetadataClient(scheme,
		object("Event", "e1"), object("ConfigMap", "c1"), object("Secret", "s1"))
	meta.PrependReactor("delete-collection", "configmaps", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, errors.New("etcd is slow")
	})
	c := &Controller{metadata: meta, discovery: preferred{FakeDiscovery: &discoveryfake.FakeDiscovery{}, lists: lists}}

	err := c.deleteContent(context.Background(), "shop")
	if err == nil || !strings.Contains(err.Error(), "etcd is slow") {
		t.Fatalf("deleteContent = %v, want the configmaps' failure", err)
	}
	var deleted []string
	for _, a := range meta.Actions() {
		if a.GetVerb() == "delete-collection" {
			deleted = append(deleted, a.GetResource().Resource)
		}
	}
	if want := "configmaps secrets events"; strings.Join(deleted, " ") != want {
		t.Errorf("collections deleted in order %v, want %s (Events last, none skipped)", deleted, want)
	}
}
