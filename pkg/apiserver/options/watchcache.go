package options

import (
	"fmt"

	genericoptions "k8s.io/apiserver/pkg/server/options"
	"k8s.io/kubernetes/pkg/kubeapiserver"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

// withDefaultWatchCacheSizes adds the default watch-cache sizes to those
// given with --watch-cache-sizes, which win. As in kube-apiserver, Events
// (core and events.k8s.io) are read from etcd, not kept in a watch cache:
// they are the most numerous objects on a busy control plane and rarely
// listed. On the embedded etcd, Works are read from it too: one per
// template and cluster, each carrying its manifests, they are most of what
// mco stores, and their only watchers are mco-controller-manager's
// informer and each mco-agent's. Cached, they were a third of
// mco-apiserver's live heap at 10,000 Deployments in ten members; read by
// direct calls into the embedded member, a Work's write costs one more
// read (about 1 % of mco-apiserver's CPU in make bench-propagation), where
// over gRPC to an external etcd it cost ~10 ms of CPU per Deployment, so
// there they stay cached. works.work.karmada.io#N (N > 0) brings the cache
// back.
func withDefaultWatchCacheSizes(given []string, embeddedEtcd bool) ([]string, error) {
	sizes := kubeapiserver.DefaultWatchCacheSizes()
	if embeddedEtcd {
		sizes[workv1alpha1.SchemeGroupVersion.WithResource("works").GroupResource()] = 0
	}
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
