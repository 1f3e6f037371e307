package controller

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestPriorityQueue(t *testing.T) {
	t.Parallel()
	prio := map[string]int32{"high": 10, "high2": 10, "mid": 5}
	var mu sync.Mutex
	lookup := func(k string) int32 {
		mu.Lock()
		defer mu.Unlock()
		return prio[k]
	}
	var order []string
	done := make(chan struct{})
	c := New("prio", func(_ context.Context, k string) error {
		order = append(order, k)
		if len(order) == 6 {
			close(done)
		}
		return nil
	}, WithPriority(lookup))
	for _, k := range []string{"low1", "high", "low2", "mid", "high2", "raised"} {
		c.Enqueue(k)
	}
	// A waiting key whose priority rose is taken at its new priority when
	// added again.
	mu.Lock()
	prio["raised"] = 7
	mu.Unlock()
	c.Enqueue("raised")
	c.Enqueue("low1") // already waiting: keeps its place
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = c.Run(ctx, 1) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("synced only %v", order)
	}
	if got, want := strings.Join(order, ","), "high,high2,raised,mid,low1,low2"; got != want {
		t.Errorf("order %s, want %s", got, want)
	}
}
