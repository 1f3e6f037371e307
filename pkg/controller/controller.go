// Package controller is the loop every mco controller runs: a typed,
// rate-limited work queue drained by workers that call one sync function
// per key, once the informer caches it reads have synced.
package controller

import (
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// ErrRetry asks for the key to be retried with back-off without logging an
// error: the sync is waiting on something expected to change (an object
// still being deleted, a member not yet reachable). Write conflicts are
// retried quietly too: they only mean the cache was behind.
var ErrRetry = errors.New("retry")

// Retry wraps a reason in ErrRetry.
func Retry(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrRetry, fmt.Sprintf(format, args...))
}

// Controller drains a queue of keys into a sync function.
type Controller[K comparable] struct {
	name   string
	sync   func(context.Context, K) error
	queue  workqueue.TypedRateLimitingInterface[K]
	synced []cache.InformerSynced
}

// Option configures a Controller.
type Option func(*options)

type options struct {
	baseDelay, maxDelay time.Duration
	priority            any // func(K) int32
}

// WithBackoff sets the per-key exponential back-off (defaults 5ms..1000s as
// client-go's controller rate limiter, capped here at 30s).
func WithBackoff(base, max time.Duration) Option {
	return func(o *options) { o.baseDelay, o.maxDelay = base, max }
}

// WithPriority makes the queue hand out keys of higher priority first,
// in arrival order within a priority (priority must be a func(K) int32
// of the controller's key type, cheap: it is read when a key is added).
func WithPriority[K comparable](priority func(K) int32) Option {
	return func(o *options) { o.priority = priority }
}

// New returns a controller named name (the queue's name in logs and metrics).
func New[K comparable](name string, sync func(context.Context, K) error, opts ...Option) *Controller[K] {
	o := options{baseDelay: 5 * time.Millisecond, maxDelay: 30 * time.Second}
	for _, opt := range opts {
		opt(&o)
	}
	limiter := workqueue.NewTypedMaxOfRateLimiter[K](
		workqueue.NewTypedItemExponentialFailureRateLimiter[K](o.baseDelay, o.maxDelay),
		&workqueue.TypedBucketRateLimiter[K]{Limiter: newBucket()},
	)
	cfg := workqueue.TypedRateLimitingQueueConfig[K]{Name: name}
	if priority, ok := o.priority.(func(K) int32); ok {
		cfg.DelayingQueue = workqueue.NewTypedDelayingQueueWithConfig(workqueue.TypedDelayingQueueConfig[K]{
			Name: name,
			Queue: workqueue.NewTypedWithConfig(workqueue.TypedQueueConfig[K]{
				Name: name, Queue: newPriorityQueue(priority),
			}),
		})
	}
	return &Controller[K]{
		name:  name,
		sync:  sync,
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(limiter, cfg),
	}
}

// Name is the controller's name.
func (c *Controller[K]) Name() string { return c.name }

// WaitFor adds informer caches that must sync before workers start.
func (c *Controller[K]) WaitFor(synced ...cache.InformerSynced) {
	c.synced = append(c.synced, synced...)
}

// Enqueue adds a key.
func (c *Controller[K]) Enqueue(k K) { c.queue.Add(k) }

// EnqueueAfter adds a key after a delay.
func (c *Controller[K]) EnqueueAfter(k K, d time.Duration) { c.queue.AddAfter(k, d) }

// Len is the number of keys waiting.
func (c *Controller[K]) Len() int { return c.queue.Len() }

// HasSynced tells whether the caches the controller waits for have synced.
func (c *Controller[K]) HasSynced() bool {
	for _, s := range c.synced {
		if !s() {
			return false
		}
	}
	return true
}

// Run waits for the caches, then runs workers until ctx ends.
func (c *Controller[K]) Run(ctx context.Context, workers int) error {
	defer utilruntime.HandleCrash()
	defer c.queue.ShutDown()
	logger := klog.FromContext(ctx).WithValues("controller", c.name)
	if !cache.WaitForCacheSync(ctx.Done(), c.synced...) {
		return nil // only when ctx ended
	}
	logger.V(1).Info("Controller started", "workers", workers)
	ctx = klog.NewContext(ctx, logger)
	for i := 0; i < workers; i++ {
		go wait.UntilWithContext(ctx, c.worker, time.Second)
	}
	<-ctx.Done()
	return nil
}

func (c *Controller[K]) worker(ctx context.Context) {
	for c.processNext(ctx) {
	}
}

func (c *Controller[K]) processNext(ctx context.Context) bool {
	k, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(k)
	err := c.sync(ctx, k)
	switch {
	case err == nil:
		c.queue.Forget(k)
	case errors.Is(err, ErrRetry) || apierrors.IsConflict(err):
		klog.FromContext(ctx).V(4).Info("Retrying", "key", k, "reason", err.Error())
		c.queue.AddRateLimited(k)
	default:
		klog.FromContext(ctx).Error(err, "Sync failed; will retry", "key", k)
		c.queue.AddRateLimited(k)
	}
	return true
}
