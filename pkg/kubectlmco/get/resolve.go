package get

import (
	"context"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
)

// memberResource is a kind as one member serves it.
type memberResource struct {
	gvr        schema.GroupVersionResource
	namespaced bool
}

// resolve finds what the kind argument ("deploy", "deployments.apps",
// "Deployment", "deployments.v1.apps") names in the member reached with
// cfg, by the member's own discovery.
func resolve(ctx context.Context, cfg *rest.Config, kind string) (memberResource, error) {
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return memberResource{}, fmt.Errorf("discovery client: %w", err)
	}
	cached := memory.NewMemCacheClientWithContext(dc)
	mapper := restmapper.NewShortcutExpanderWithContext(restmapper.NewDeferredDiscoveryRESTMapperWithContext(cached), cached, func(string) {})
	fully, partial := schema.ParseResourceArg(strings.ToLower(kind))
	var gvr schema.GroupVersionResource
	err = &meta.NoResourceMatchError{}
	if fully != nil {
		gvr, err = mapper.ResourceForWithContext(ctx, *fully)
	}
	if err != nil {
		gvr, err = mapper.ResourceForWithContext(ctx, partial.WithVersion(""))
	}
	if meta.IsNoMatchError(err) {
		return memberResource{}, fmt.Errorf("the server doesn't have a resource type %q", kind)
	}
	if err != nil {
		return memberResource{}, fmt.Errorf("resolve %q: %w", kind, err)
	}
	gvk, err := mapper.KindForWithContext(ctx, gvr)
	if err != nil {
		return memberResource{}, fmt.Errorf("resolve %q: %w", kind, err)
	}
	mapping, err := mapper.RESTMappingWithContext(ctx, gvk.GroupKind(), gvk.Version)
	if err != nil {
		return memberResource{}, fmt.Errorf("resolve %q: %w", kind, err)
	}
	return memberResource{gvr: mapping.Resource, namespaced: mapping.Scope.Name() == meta.RESTScopeNameNamespace}, nil
}
