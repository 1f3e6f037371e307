package clusterstatus

import (
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Thresholds are how long an observed Ready status must hold before it
// is published: Failure for a change away from True, Success for a
// change to True.
type Thresholds struct {
	Failure, Success time.Duration
}

// pending is an observed Ready status that differs from the published one.
type pending struct {
	status metav1.ConditionStatus
	since  time.Time
}

// adjust decides the Ready condition to publish given the published one
// (nil when there is none yet), what the probe observed now and the change
// pending since an earlier probe. It returns the condition, the pending
// change to remember (nil when none) and, while a change waits, how long
// until it is due.
func (t Thresholds) adjust(published *metav1.Condition, observed metav1.Condition, p *pending, now time.Time) (metav1.Condition, *pending, time.Duration) {
	if published == nil || published.Status == observed.Status {
		return observed, nil, 0
	}
	if p == nil || p.status != observed.Status {
		p = &pending{status: observed.Status, since: now}
	}
	threshold := t.Failure
	if observed.Status == metav1.ConditionTrue {
		threshold = t.Success
	}
	if held := now.Sub(p.since); held < threshold {
		return *published, p, threshold - held
	}
	return observed, nil, 0
}

// pendingChanges remembers each cluster's pending change between probes.
type pendingChanges struct {
	mu sync.Mutex
	m  map[string]*pending
}

func (c *pendingChanges) get(name string) *pending {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[name]
}

func (c *pendingChanges) set(name string, p *pending) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*pending{}
	}
	if p == nil {
		delete(c.m, name)
		return
	}
	c.m[name] = p
}
