package controller

import (
	"testing"
	"time"
)

func TestCoalescer(t *testing.T) {
	t.Parallel()
	type step struct {
		at       time.Duration // since the start
		change   Change
		written  bool // Written is called before this step's Due
		wantDue  bool
		wantWait time.Duration
	}
	cases := []struct {
		name   string
		window time.Duration
		steps  []step
	}{
		{"a settled change is written at once", time.Second, []step{{at: 0, change: Settled, wantDue: true}}},
		{"a change in passing waits the window out", time.Second, []step{
			{at: 0, wantWait: time.Second},
			{at: 300 * time.Millisecond, wantWait: 700 * time.Millisecond},
			{at: time.Second, wantDue: true},
		}},
		{"settling inside the window is written at once", time.Second, []step{
			{at: 0, wantWait: time.Second},
			{at: 400 * time.Millisecond, change: Settled, wantDue: true},
		}},
		{"no window writes everything at once", 0, []step{{at: 0, wantDue: true}}},
		{"the window doubles after each write in passing", time.Second, []step{
			{at: 0, wantWait: time.Second},
			{at: time.Second, wantDue: true},
			{at: 1100 * time.Millisecond, written: true, wantWait: 2 * time.Second},
			{at: 3100 * time.Millisecond, wantDue: true},
			{at: 3200 * time.Millisecond, written: true, wantWait: 4 * time.Second},
			{at: 7200 * time.Millisecond, wantDue: true},
			{at: 7300 * time.Millisecond, written: true, wantWait: 6 * time.Second}, // capped at 6x
		}},
		{"a settled change resets the window", time.Second, []step{
			{at: 0, wantWait: time.Second},
			{at: time.Second, wantDue: true},
			{at: 1100 * time.Millisecond, written: true, change: Settled, wantDue: true},
			{at: 1200 * time.Millisecond, written: true, wantWait: time.Second},
		}},
		{"a detail waits for the longest window", time.Second, []step{
			{at: 0, change: Detail, wantWait: 6 * time.Second},
			{at: 2 * time.Second, change: Detail, wantWait: 4 * time.Second},
			{at: 6 * time.Second, change: Detail, wantDue: true},
		}},
		{"a step on the way shortens a detail's window", time.Second, []step{
			{at: 0, change: Detail, wantWait: 6 * time.Second},
			{at: 500 * time.Millisecond, wantWait: 500 * time.Millisecond},
			{at: 700 * time.Millisecond, change: Detail, wantWait: 300 * time.Millisecond},
			{at: time.Second, wantDue: true},
		}},
		{"a detail rides in a window already open", time.Second, []step{
			{at: 0, wantWait: time.Second},
			{at: 500 * time.Millisecond, change: Detail, wantWait: 500 * time.Millisecond},
		}},
		{"a detail settles like any change", time.Second, []step{
			{at: 0, change: Detail, wantWait: 6 * time.Second},
			{at: time.Second, change: Settled, wantDue: true},
			{at: 2 * time.Second, written: true, change: Detail, wantWait: 6 * time.Second},
		}},
		{"an aside waits for the longest hold", time.Second, []step{
			{at: 0, change: Aside, wantWait: 30 * time.Second},
			{at: 10 * time.Second, change: Aside, wantWait: 20 * time.Second},
			{at: 30 * time.Second, change: Aside, wantDue: true},
		}},
		{"a detail shortens an aside's wait, a step on the way more", time.Second, []step{
			{at: 0, change: Aside, wantWait: 30 * time.Second},
			{at: 2 * time.Second, change: Detail, wantWait: 4 * time.Second},
			{at: 3 * time.Second, change: Aside, wantWait: 3 * time.Second},
			{at: 3500 * time.Millisecond, wantDue: true},
		}},
		{"an aside after writes in passing still waits for its hold", time.Second, []step{
			{at: 0, wantWait: time.Second},
			{at: time.Second, wantDue: true},
			{at: 1100 * time.Millisecond, written: true, change: Aside, wantWait: 30 * time.Second},
			{at: 11100 * time.Millisecond, change: InPassing, wantDue: true},
		}},
		{"a window closed without a write does not grow", time.Second, []step{
			{at: 0, wantWait: time.Second},
			{at: 500 * time.Millisecond, written: true, wantWait: time.Second},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			start := time.Unix(1000, 0)
			var now time.Time
			co := NewCoalescer[string](c.window)
			co.now = func() time.Time { return now }
			for i, s := range c.steps {
				now = start.Add(s.at)
				if s.written {
					co.Written("k")
				}
				due, wait := co.Due("k", s.change)
				if due != s.wantDue || wait != s.wantWait {
					t.Errorf("step %d: Due = %t, %s; want %t, %s", i, due, wait, s.wantDue, s.wantWait)
				}
			}
		})
	}
}
