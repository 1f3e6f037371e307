package options

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
	genericoptions "k8s.io/apiserver/pkg/server/options"
	"k8s.io/kubernetes/pkg/kubeapiserver"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

// works is the resource of Works.
var works = schema.GroupResource{Group: workv1alpha1.GroupName, Resource: "works"}

// withDefaultWatchCacheSizes adds the default watch-cache sizes to those
// given with --watch-cache-sizes, which win. As in kube-apiserver, Events
// (core and events.k8s.io) are read from etcd, not kept in a watch cache:
// they are the most numerous objects on a busy control plane, rarely
// listed, and no controller watches them. Works are read from etcd too:
// there is one per template and cluster, each carrying its manifests, so
// they are most of what mco stores (40,000 of 51,000 objects at 10 members
// × 10,000 Deployments in make bench-scale); their only watchers are
// mco-controller-manager's informer and each mco-agent's, one namespace
// each, which etcd serves as well as a cache would, and a cache holds a
// decoded copy of every one (--watch-cache-sizes=works.work.karmada.io#1
// keeps one; any size other than 0 means the same).
func withDefaultWatchCacheSizes(given []string) ([]string, error) {
	sizes := kubeapiserver.DefaultWatchCacheSizes()
	sizes[works] = 0
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
