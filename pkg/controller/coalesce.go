package controller

import (
	"sync"
	"time"
)

// Coalescer holds back the writes of changes in passing (a workload
// starting in a member goes through several statuses in a few seconds) so
// that those that arrive within one window cost one write. A change that
// reaches a settled state is written at once: users see the outcome
// without delay, and only the steps on the way are coalesced.
type Coalescer[K comparable] struct {
	window time.Duration
	now    func() time.Time

	mu    sync.Mutex
	since map[K]time.Time // first change not yet written
}

// NewCoalescer returns a Coalescer with the given window.
func NewCoalescer[K comparable](window time.Duration) *Coalescer[K] {
	return &Coalescer[K]{window: window, now: time.Now, since: map[K]time.Time{}}
}

// Due tells whether a change of k, settled or in passing, is to be
// written now; when it is not, wait is how long until it is. The first
// change in passing opens k's window.
func (c *Coalescer[K]) Due(k K, settled bool) (due bool, wait time.Duration) {
	if settled || c.window <= 0 {
		return true, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	since, ok := c.since[k]
	if !ok {
		c.since[k] = now
		return false, c.window
	}
	if left := since.Add(c.window).Sub(now); left > 0 {
		return false, left
	}
	return true, 0
}

// Written closes k's window: its status is written, or needs no write.
func (c *Coalescer[K]) Written(k K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.since, k)
}
