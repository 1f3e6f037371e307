package controller

import (
	"sync"
	"time"
)

// maxWindowFactor bounds how far a key's window grows: to this many times
// the base window. A Detail waits this long at most.
const maxWindowFactor = 6

// maxAsideFactor is how many base windows an Aside waits at most.
const maxAsideFactor = 30

// Coalescer holds back the writes of changes in passing (a workload
// starting in a member goes through several statuses in a few seconds) so
// that those that arrive within one window cost one write. A change that
// reaches a settled state is written at once: users see the outcome
// without delay, and only the steps on the way are coalesced.
//
// A key that stays on its way for long (a rollout that takes minutes, a
// member slow to start pods) has its window doubled after each write in
// passing, up to maxWindowFactor times the base: its progress still shows,
// at a pace that costs a handful of writes rather than one per window. A
// settled change resets it. A detail (see Detail, Aside) waits longer,
// unless a step on the way comes first.
type Coalescer[K comparable] struct {
	window time.Duration
	now    func() time.Time

	mu   sync.Mutex
	keys map[K]*coalesced
}

// Change says how a status change is to be written.
type Change int

const (
	// InPassing is a step on the way, coalesced within the key's window.
	InPassing Change = iota
	// Settled is an outcome, written at once.
	Settled
	// Detail is a change on the way that moves nothing users count or
	// controllers decide on, yet one users look for within a minute (a
	// Work's first apply before its member reports anything of the
	// workload): it rides with the next write, and waits for the longest
	// window at most.
	Detail
	// Aside is a detail that follows what is written (a member rewording
	// its own conditions while its counters, its health and the Work's own
	// conditions stand still): it rides with the next write, and waits for
	// maxAsideFactor base windows at most (5 minutes at the default 10 s).
	// A workload that takes minutes to start then costs no write between
	// its first step and its outcome for words nobody acts on.
	Aside
)

// SettledIf is Settled when settled holds, InPassing otherwise.
func SettledIf(settled bool) Change {
	if settled {
		return Settled
	}
	return InPassing
}

// coalesced is one key's state between its settled writes.
type coalesced struct {
	open   bool          // a change waits to be written
	since  time.Time     // when the open window started
	hold   time.Duration // only details wait, this long; 0: the key's window
	fired  bool          // Due said the open window is over
	writes int           // writes in passing since the last settled one
}

// NewCoalescer returns a Coalescer with the given base window.
func NewCoalescer[K comparable](window time.Duration) *Coalescer[K] {
	return &Coalescer[K]{window: window, now: time.Now, keys: map[K]*coalesced{}}
}

// Due tells whether a change of k (everything that differs from what is
// written, classified as a whole) is to be written now; when it is not,
// wait is how long until it is. The first change not settled opens k's
// window.
func (c *Coalescer[K]) Due(k K, change Change) (due bool, wait time.Duration) {
	if c.window <= 0 {
		return true, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if change == Settled {
		delete(c.keys, k)
		return true, 0
	}
	e := c.keys[k]
	if e == nil {
		e = &coalesced{}
		c.keys[k] = e
	}
	now := c.now()
	hold := c.holdFor(change)
	if !e.open {
		e.open, e.since, e.fired, e.hold = true, now, false, hold
	} else if e.hold > 0 && (hold == 0 || hold < e.hold) {
		e.hold = hold // a step on the way, or a detail of a shorter wait
	}
	window := c.windowAfter(e.writes)
	if e.hold > 0 {
		window = e.hold
	}
	if left := e.since.Add(window).Sub(now); left > 0 {
		return false, left
	}
	e.fired = true
	return true, 0
}

// holdFor is how long a detail of this class may wait; 0 for a step on
// the way, which waits for the key's window.
func (c *Coalescer[K]) holdFor(change Change) time.Duration {
	switch change {
	case Detail:
		return c.window * maxWindowFactor
	case Aside:
		return c.window * maxAsideFactor
	}
	return 0
}

// windowAfter is the window of a key that was written n times in passing.
func (c *Coalescer[K]) windowAfter(n int) time.Duration {
	f := 1
	for ; n > 0 && f < maxWindowFactor; n-- {
		f *= 2
	}
	return c.window * time.Duration(min(f, maxWindowFactor))
}

// Written closes k's window: its status is written, or needs no write.
func (c *Coalescer[K]) Written(k K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.keys[k]
	if e == nil {
		return
	}
	if e.fired {
		e.writes++
	}
	e.open, e.fired, e.hold = false, false, 0
	if e.writes == 0 {
		delete(c.keys, k)
	}
}

// Forget drops what is kept of k, which is gone.
func (c *Coalescer[K]) Forget(k K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.keys, k)
}
