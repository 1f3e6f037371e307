package namespace

import (
	"context"
	"errors"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	discoveryfake "k8s.io/client-go/discovery/fake"
	dynamicfake "k8s.io/client-go/dynamic/fake"
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
	object := func(kind, name string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{}
		u.SetAPIVersion("v1")
		u.SetKind(kind)
		u.SetNamespace("shop")
		u.SetName(name)
		return u
	}
	scheme := runtime.NewScheme()
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(scheme, map[schema.GroupVersionResource]string{
		{Version: "v1", Resource: "events"}:     "EventList",
		{Version: "v1", Resource: "configmaps"}: "ConfigMapList",
		{Version: "v1", Resource: "secrets"}:    "SecretList",
	}, object("Event", "e1"), object("ConfigMap", "c1"), object("Secret", "s1"))
	dyn.PrependReactor("delete-collection", "configmaps", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, errors.New("etcd is slow")
	})
	c := &Controller{dynamic: dyn, discovery: preferred{FakeDiscovery: &discoveryfake.FakeDiscovery{}, lists: lists}}

	err := c.deleteContent(context.Background(), "shop")
	if err == nil || !strings.Contains(err.Error(), "etcd is slow") {
		t.Fatalf("deleteContent = %v, want the configmaps' failure", err)
	}
	var deleted []string
	for _, a := range dyn.Actions() {
		if a.GetVerb() == "delete-collection" {
			deleted = append(deleted, a.GetResource().Resource)
		}
	}
	if want := "configmaps secrets events"; strings.Join(deleted, " ") != want {
		t.Errorf("collections deleted in order %v, want %s (Events last, none skipped)", deleted, want)
	}
}
