package lua

import (
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// Memory watch timings: a call is first left alone for watchGrace (most
// take microseconds), then its allocations are sampled every watchEvery.
const (
	watchGrace = 5 * time.Millisecond
	watchEvery = 2 * time.Millisecond
)

const allocsMetric = "/gc/heap/allocs:bytes"

// allocWatch cuts a call short once the process has allocated more than a
// limit since the call began. gopher-lua keeps no account of a state's
// memory, so the process's cumulative allocations stand in for the call's:
// the bound is an upper one, shared with whatever else runs meanwhile
// (VM.run tries a call cut short once more for that reason).
type allocWatch struct {
	count    func() uint64
	timer    *time.Timer
	done     chan struct{}
	once     sync.Once
	tripped  atomic.Bool
	start    uint64
	limit    uint64
	onExceed func()
}

// watchAllocations watches the allocations count reports.
func watchAllocations(count func() uint64, limit uint64, onExceed func()) *allocWatch {
	w := &allocWatch{count: count, done: make(chan struct{}), limit: limit, onExceed: onExceed, start: count()}
	w.timer = time.AfterFunc(watchGrace, w.run)
	return w
}

func (w *allocWatch) run() {
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	for {
		if w.count()-w.start > w.limit {
			w.tripped.Store(true)
			w.onExceed()
			return
		}
		select {
		case <-w.done:
			return
		case <-t.C:
		}
	}
}

func (w *allocWatch) stop() {
	w.timer.Stop()
	w.once.Do(func() { close(w.done) })
}

func (w *allocWatch) exceeded() bool { return w.tripped.Load() }

// allocated is the process's cumulative heap allocation in bytes.
func allocated() uint64 {
	s := []metrics.Sample{{Name: allocsMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
