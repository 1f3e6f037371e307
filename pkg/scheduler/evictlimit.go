package scheduler

import (
	"time"

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

// retryAfter is when a binding refused by allow should ask again, with
// queued bindings waiting: spread over the time the applicable rate needs
// to let them all through (at least a second, at most ten minutes), so
// that waiting bindings do not spin.
func (l *evictionLimiter) retryAfter(clusters []*clusterv1alpha1.Cluster, queued int) time.Duration {
	rate := l.o.Rate
	if unhealthyFraction(clusters) > l.o.UnhealthyThreshold {
		rate = l.o.SecondaryRate
	}
	if rate <= 0 {
		return 10 * time.Minute // a cluster change queues the binding again
	}
	d := time.Duration(float64(max(queued, 1)) / float64(rate) * float64(time.Second)).Round(time.Millisecond)
	return min(max(d, time.Second), 10*time.Minute)
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
