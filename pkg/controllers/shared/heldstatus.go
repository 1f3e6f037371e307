package shared

import (
	"sync"

	"k8s.io/apimachinery/pkg/types"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

// HeldStatuses carries the Work statuses the execution controller reads
// from an apply's answer while the workload is still on its way (not yet
// Available) to the work status controller, which writes them together
// with the member's next changes: a workload that settles within the
// coalescing window costs its Work one status write instead of one per
// step. Without a work status controller (or holder: a nil one is
// empty) nothing is held.
type HeldStatuses struct {
	mu     sync.Mutex
	held   map[types.NamespacedName]HeldStatus
	seq    uint64
	notify func(types.NamespacedName)
}

// HeldStatus is one Work's status as an apply left it.
type HeldStatus struct {
	// Generation is the Work's generation the apply was of.
	Generation int64
	Status     workv1alpha1.WorkStatus
	seq        uint64
}

// NewHeldStatuses returns an empty holder.
func NewHeldStatuses() *HeldStatuses {
	return &HeldStatuses{held: map[types.NamespacedName]HeldStatus{}}
}

// OnHold registers the work status controller, told of each held status.
func (h *HeldStatuses) OnHold(f func(types.NamespacedName)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.notify = f
}

// Hold keeps a Work's status for the work status controller; false when
// there is none, and the caller writes the status itself.
func (h *HeldStatuses) Hold(k types.NamespacedName, generation int64, status *workv1alpha1.WorkStatus) bool {
	if h == nil {
		return false
	}
	h.mu.Lock()
	notify := h.notify
	if notify != nil {
		h.seq++
		h.held[k] = HeldStatus{Generation: generation, Status: *status.DeepCopy(), seq: h.seq}
	}
	h.mu.Unlock()
	if notify == nil {
		return false
	}
	notify(k)
	return true
}

// Get returns the status held for a Work.
func (h *HeldStatuses) Get(k types.NamespacedName) (HeldStatus, bool) {
	if h == nil {
		return HeldStatus{}, false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	s, ok := h.held[k]
	return s, ok
}

// Release forgets what was held for a Work, unless something newer has
// been held since got was read.
func (h *HeldStatuses) Release(k types.NamespacedName, got HeldStatus) {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if s, ok := h.held[k]; ok && s.seq == got.seq {
		delete(h.held, k)
	}
}

// Drop forgets what was held for a Work: its status is being written by
// the caller.
func (h *HeldStatuses) Drop(k types.NamespacedName) {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.held, k)
}
