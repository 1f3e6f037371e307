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
// and Kubernetes' own controllers do not watch them. Works stay cached: read
// from etcd instead (--watch-cache-sizes=works.work.karmada.io#0), they
// halve mco-apiserver's live heap at 10,000 Deployments in ten members but
// cost an etcd read per write, about 10 ms of CPU per Deployment in make
// bench-propagation, for a peak that barely moves.
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
