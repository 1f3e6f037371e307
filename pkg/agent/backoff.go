package agent

import "time"

// backoff is the wait between attempts to reach mco: it starts at initial,
// doubles after each failure up to max, and starts over after a success.
type backoff struct {
	initial, max, next time.Duration
}

func newBackoff(initial, max time.Duration) *backoff {
	return &backoff{initial: initial, max: max, next: initial}
}

// failed returns how long to wait before the next attempt.
func (b *backoff) failed() time.Duration {
	d := b.next
	b.next = min(2*b.next, b.max)
	return d
}

// reset starts over after a success.
func (b *backoff) reset() { b.next = b.initial }
