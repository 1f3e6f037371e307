package scheduler

import (
	"k8s.io/client-go/util/flowcontrol"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

// EvictionOptions bound how fast bindings are moved off tainted clusters,
// as kube-controller-manager bounds node evictions: at Rate per second,
// at SecondaryRate once more than UnhealthyThreshold of the clusters are
// unhealthy (a control-plane network blip looks like that), and not at
// all when every cluster is.
type EvictionOptions struct {
	Rate, SecondaryRate float32
	UnhealthyThreshold  float64
}

// DefaultEvictionOptions are Karmada's --resource-eviction-rate and
// kube-controller-manager's secondary rate and threshold.
func DefaultEvictionOptions() EvictionOptions {
	return EvictionOptions{Rate: 0.5, SecondaryRate: 0.01, UnhealthyThreshold: 0.55}
}

// evictionLimiter decides whether one more binding may be moved now.
type evictionLimiter struct {
	o                  EvictionOptions
	primary, secondary flowcontrol.RateLimiter
}

func newEvictionLimiter(o EvictionOptions) *evictionLimiter {
	l := &evictionLimiter{o: o}
	if o.Rate > 0 {
		l.primary = flowcontrol.NewTokenBucketRateLimiter(o.Rate, 1)
	}
	if o.SecondaryRate > 0 {
		l.secondary = flowcontrol.NewTokenBucketRateLimiter(o.SecondaryRate, 1)
	}
	return l
}

// allow takes a token from the bucket that applies to the fleet's health.
func (l *evictionLimiter) allow(clusters []*clusterv1alpha1.Cluster) bool {
	frac := unhealthyFraction(clusters)
	switch {
	case frac >= 1:
		return false
	case frac > l.o.UnhealthyThreshold:
		return l.secondary != nil && l.secondary.TryAccept()
	default:
		return l.primary != nil && l.primary.TryAccept()
	}
}
