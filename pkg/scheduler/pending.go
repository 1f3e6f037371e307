package scheduler

import (
	"sync"

	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/metrics"
)

// pendingSets tracks which bindings wait after a failed attempt: in
// backoff (an error, retried with rate limiting) or unschedulable (retried
// when a cluster or the binding changes).
type pendingSets struct {
	mu            sync.Mutex
	backoff       map[binding.Key]struct{}
	unschedulable map[binding.Key]struct{}
}

// record files a binding by the result of its last attempt.
func (p *pendingSets) record(k binding.Key, result string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.backoff == nil {
		p.backoff, p.unschedulable = map[binding.Key]struct{}{}, map[binding.Key]struct{}{}
	}
	delete(p.backoff, k)
	delete(p.unschedulable, k)
	switch result {
	case metrics.ResultError:
		p.backoff[k] = struct{}{}
	case metrics.ResultUnschedulable:
		p.unschedulable[k] = struct{}{}
	}
}

func (p *pendingSets) sizes() (backoff, unschedulable int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.backoff), len(p.unschedulable)
}

// unschedulableKeys lists the bindings whose last attempt found no room.
func (p *pendingSets) unschedulableKeys() []binding.Key {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]binding.Key, 0, len(p.unschedulable))
	for k := range p.unschedulable {
		out = append(out, k)
	}
	return out
}
