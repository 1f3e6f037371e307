package member

import (
	"errors"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"

	"github.com/mco-org/mco/pkg/protowatch"
)

// TestProtoObjectsChoose: built-in kinds get a protobuf informer, other
// kinds none (the caller watches them as JSON); either answer is
// remembered per resource, a kind that cannot be told too (its handlers
// are on the JSON informer the caller made).
func TestProtoObjectsChoose(t *testing.T) {
	clients, err := protowatch.NewClients(&rest.Config{Host: "https://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	deployments := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	widgets := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	gadgets := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "gadgets"}
	kinds := map[schema.GroupVersionResource]schema.GroupVersionKind{
		deployments: {Group: "apps", Version: "v1", Kind: "Deployment"},
		widgets:     {Group: "example.com", Version: "v1", Kind: "Widget"},
	}
	asked := map[schema.GroupVersionResource]int{}
	kindFor := func(gvr schema.GroupVersionResource) (schema.GroupVersionKind, error) {
		asked[gvr]++
		if gvk, ok := kinds[gvr]; ok {
			return gvk, nil
		}
		return schema.GroupVersionKind{}, errors.New("no match")
	}
	p := newProtoObjects(clients)
	for _, tc := range []struct {
		gvr       schema.GroupVersionResource
		wantProto bool
	}{
		{deployments, true}, {deployments, true},
		{widgets, false}, {widgets, false},
		{gadgets, false}, {gadgets, false},
	} {
		if got := p.informer(tc.gvr, kindFor) != nil; got != tc.wantProto {
			t.Errorf("%s: protobuf informer %v, want %v", tc.gvr, got, tc.wantProto)
		}
	}
	if a, b := p.informer(deployments, kindFor), p.informer(deployments, kindFor); a != b {
		t.Error("a resource got two informers")
	}
	for gvr, want := range map[schema.GroupVersionResource]int{deployments: 1, widgets: 1, gadgets: 1} {
		if asked[gvr] != want {
			t.Errorf("%s: kind asked %d times, want %d", gvr, asked[gvr], want)
		}
	}
}
