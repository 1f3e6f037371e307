package controller

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
)

// waitLimit bounds every wait, so that a broken loop fails instead of hanging.
const waitLimit = 10 * time.Second

// recorder is a fake sync: it counts calls per key, fails each key's first
// failures[key] calls with errs[key], and reports every call on calls.
type recorder struct {
	mu       sync.Mutex
	count    map[string]int
	failures map[string]int
	errs     map[string]error
	inFlight map[string]bool
	overlap  atomic.Bool
	calls    chan string
}

func newRecorder() *recorder {
	return &recorder{count: map[string]int{}, failures: map[string]int{}, errs: map[string]error{},
		inFlight: map[string]bool{}, calls: make(chan string, 100)}
}

func (r *recorder) sync(_ context.Context, k string) error {
	r.mu.Lock()
	if r.inFlight[k] {
		r.overlap.Store(true)
	}
	r.inFlight[k] = true
	r.count[k]++
	n := r.count[k]
	err := r.errs[k]
	fail := n <= r.failures[k]
	r.mu.Unlock()
	time.Sleep(time.Millisecond) // widen the window in which a second worker could overlap
	r.mu.Lock()
	r.inFlight[k] = false
	r.mu.Unlock()
	r.calls <- k
	if fail {
		return err
	}
	return nil
}

func (r *recorder) calledTimes(k string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.count[k]
}

// start runs c with workers until the test ends, and returns a function
// that stops it and waits for Run to return.
func start(t *testing.T, c *Controller[string], workers int) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, workers) }()
	var once sync.Once
	var runErr error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case runErr = <-done:
			case <-time.After(waitLimit):
				runErr = errors.New("Run did not return after its context ended")
			}
		})
		return runErr
	}
	t.Cleanup(func() { _ = stop() })
	return stop
}

// pollCounter counts the calls of an InformerSynced it hands out.
type pollCounter struct{ n atomic.Int32 }

func (p *pollCounter) synced(result bool) cache.InformerSynced {
	return func() bool { p.n.Add(1); return result }
}

// waitFor polls cond until it holds, failing the test at waitLimit.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	err := wait.PollUntilContextTimeout(context.Background(), time.Millisecond, waitLimit, true,
		func(context.Context) (bool, error) { return cond(), nil })
	if err != nil {
		t.Fatalf("%s: not within %s", what, waitLimit)
	}
}

// await waits until every key in want has been synced successfully as often
// as listed (counting all calls).
func await(t *testing.T, r *recorder, want map[string]int) {
	t.Helper()
	deadline := time.After(waitLimit)
	for {
		done := true
		for k, n := range want {
			if r.calledTimes(k) < n {
				done = false
			}
		}
		if done {
			return
		}
		select {
		case <-r.calls:
		case <-deadline:
			r.mu.Lock()
			defer r.mu.Unlock()
			t.Fatalf("synced %v before the deadline, want at least %v", r.count, want)
		}
	}
}

func fast() Option { return WithBackoff(time.Millisecond, 5*time.Millisecond) }

func TestControllerSyncsEveryKey(t *testing.T) {
	t.Parallel()
	r := newRecorder()
	c := New("test", r.sync, fast())
	for _, k := range []string{"a", "b", "c", "a"} {
		c.Enqueue(k)
	}
	c.EnqueueAfter("later", 20*time.Millisecond)
	stop := start(t, c, 2)
	await(t, r, map[string]int{"a": 1, "b": 1, "c": 1, "later": 1})
	c.Enqueue("d")
	await(t, r, map[string]int{"d": 1})
	if err := stop(); err != nil {
		t.Fatalf("Run = %v, want nil", err)
	}
	if r.overlap.Load() {
		t.Error("one key was synced by two workers at once")
	}
}

func TestControllerRetries(t *testing.T) {
	t.Parallel()
	conflict := apierrors.NewConflict(schema.GroupResource{Group: "work.karmada.io", Resource: "works"}, "w", errors.New("stale"))
	cases := []struct {
		name     string
		err      error
		failures int
	}{
		{name: "A key whose sync asks for a retry is synced again until it succeeds.", err: Retry("waiting for %s", "x"), failures: 3},
		{name: "ErrRetry wrapped by the caller is retried too.", err: fmt.Errorf("sync: %w", ErrRetry), failures: 1},
		{name: "A write conflict is retried.", err: conflict, failures: 2},
		{name: "A wrapped write conflict is retried.", err: fmt.Errorf("update: %w", conflict), failures: 1},
		{name: "Any other error is retried as well.", err: errors.New("boom"), failures: 2},
		{name: "A key that syncs at once is synced once.", failures: 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newRecorder()
			r.failures["k"], r.errs["k"] = tc.failures, tc.err
			c := New("test", r.sync, fast())
			c.Enqueue("k")
			stop := start(t, c, 1)
			await(t, r, map[string]int{"k": tc.failures + 1})
			// Forgotten after its success: no retry of it is pending any more.
			waitFor(t, "the key forgotten", func() bool { return c.queue.NumRequeues("k") == 0 && c.Len() == 0 })
			if err := stop(); err != nil {
				t.Fatal(err)
			}
			if got := r.calledTimes("k"); got != tc.failures+1 {
				t.Errorf("sync called %d times, want %d", got, tc.failures+1)
			}
		})
	}
}

func TestControllerRunReturnsWhenContextEnds(t *testing.T) {
	t.Parallel()
	never := func() bool { return false }
	cases := []struct {
		name    string
		synced  []cache.InformerSynced
		workers int
	}{
		{name: "Run returns nil when its context ends while workers are idle.", workers: 2},
		{name: "Run returns nil when its context ends before the caches have synced.", synced: []cache.InformerSynced{never}, workers: 1},
		{name: "Run returns nil with no worker at all.", workers: 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := New("test", newRecorder().sync, fast())
			polled := &pollCounter{}
			c.WaitFor(append([]cache.InformerSynced{polled.synced(true)}, tc.synced...)...)
			stop := start(t, c, tc.workers)
			waitFor(t, "Run polling its caches", func() bool { return polled.n.Load() > 0 })
			if err := stop(); err != nil {
				t.Fatalf("Run = %v, want nil", err)
			}
		})
	}
}

func TestControllerWaitsForCaches(t *testing.T) {
	t.Parallel()
	var synced atomic.Bool
	r := newRecorder()
	c := New("test", r.sync, fast())
	polled := &pollCounter{}
	c.WaitFor(polled.synced(true), synced.Load)
	c.Enqueue("k")
	start(t, c, 1)
	waitFor(t, "two polls of the caches", func() bool { return polled.n.Load() >= 2 })
	if n := r.calledTimes("k"); n != 0 {
		t.Fatalf("sync called %d times before the caches synced, want 0", n)
	}
	synced.Store(true)
	await(t, r, map[string]int{"k": 1})
}

func TestControllerHasSynced(t *testing.T) {
	t.Parallel()
	yes, no := func() bool { return true }, func() bool { return false }
	cases := []struct {
		name   string
		synced []cache.InformerSynced
		want   bool
	}{
		{name: "A controller waiting for nothing has synced.", want: true},
		{name: "A controller has synced when every cache has.", synced: []cache.InformerSynced{yes, yes}, want: true},
		{name: "One cache not synced holds the controller back.", synced: []cache.InformerSynced{yes, no}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := New("test", newRecorder().sync)
			t.Cleanup(c.queue.ShutDown)
			for _, s := range tc.synced {
				c.WaitFor(s)
			}
			if got := c.HasSynced(); got != tc.want {
				t.Errorf("HasSynced = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestControllerQueue(t *testing.T) {
	t.Parallel()
	c := New("named", newRecorder().sync)
	t.Cleanup(c.queue.ShutDown)
	if c.Name() != "named" {
		t.Errorf("Name = %q, want named", c.Name())
	}
	for _, k := range []string{"a", "b", "a", "a"} {
		c.Enqueue(k)
	}
	c.EnqueueAfter("c", time.Hour)
	if got := c.Len(); got != 2 {
		t.Errorf("Len = %d, want 2: a key waits once however often it is enqueued, and a delayed key waits apart", got)
	}
}

func TestRetry(t *testing.T) {
	t.Parallel()
	err := Retry("binding %s is being deleted", "shop/web")
	if !errors.Is(err, ErrRetry) {
		t.Errorf("Retry(...) = %v, not an ErrRetry", err)
	}
	if want := "retry: binding shop/web is being deleted"; err.Error() != want {
		t.Errorf("Retry(...) = %q, want %q", err.Error(), want)
	}
}
