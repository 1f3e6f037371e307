package options

import (
	"fmt"

	genericoptions "k8s.io/apiserver/pkg/server/options"
	"k8s.io/kubernetes/pkg/kubeapiserver"
)

// withDefaultWatchCacheSizes adds kube-apiserver's default watch-cache sizes
// to those given with --watch-cache-sizes, which win: as there, Events (core
// and events.k8s.io) are read from etcd, not kept in a watch cache. They are
// the most numerous objects on a busy control plane and are rarely listed,
// and Kubernetes' own controllers do not watch them.
func withDefaultWatchCacheSizes(given []string) ([]string, error) {
	sizes := kubeapiserver.DefaultWatchCacheSizes()
	user, err := genericoptions.ParseWatchCacheSizes(given)
	if err != nil {
		return nil, fmt.Errorf("--watch-cache-sizes: %w", err)
	}
	for r, n := range user {
		sizes[r] = n
	}
	out, err := genericoptions.WriteWatchCacheSizes(sizes)
	if err != nil {
		return nil, fmt.Errorf("--watch-cache-sizes: %w", err)
	}
	return out, nil
}
