package controller

import (
	"container/heap"
	"sync"
)

// priorityQueue holds keys to pop highest priority first, in the order
// they came within a priority. A key's priority is read once, when it is
// pushed; a key added again while waiting is looked at again (Touch), so a
// priority raised meanwhile counts. It serves client-go's work queue as its
// underlying Queue, which calls it under its own lock; the mutex guards
// only the priority reads made from outside that lock.
type priorityQueue[K comparable] struct {
	priority func(K) int32
	mu       sync.Mutex
	items    priorityHeap[K]
	index    map[K]*priorityItem[K]
	seq      uint64
}

type priorityItem[K comparable] struct {
	key      K
	priority int32
	seq      uint64
	at       int
}

func newPriorityQueue[K comparable](priority func(K) int32) *priorityQueue[K] {
	return &priorityQueue[K]{priority: priority, index: map[K]*priorityItem[K]{}}
}

// Push adds a key at its priority, behind those already there at it.
func (q *priorityQueue[K]) Push(k K) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if it, ok := q.index[k]; ok {
		q.refresh(it)
		return
	}
	q.seq++
	it := &priorityItem[K]{key: k, priority: q.priority(k), seq: q.seq}
	q.index[k] = it
	heap.Push(&q.items, it)
}

// Touch reads a waiting key's priority again, keeping its place among
// keys of that priority.
func (q *priorityQueue[K]) Touch(k K) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if it, ok := q.index[k]; ok {
		q.refresh(it)
	}
}

func (q *priorityQueue[K]) refresh(it *priorityItem[K]) {
	if p := q.priority(it.key); p != it.priority {
		it.priority = p
		heap.Fix(&q.items, it.at)
	}
}

// Len is how many keys wait.
func (q *priorityQueue[K]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.items.Len()
}

// Pop takes the first key: the highest priority, the oldest within it.
func (q *priorityQueue[K]) Pop() K {
	q.mu.Lock()
	defer q.mu.Unlock()
	it := heap.Pop(&q.items).(*priorityItem[K])
	delete(q.index, it.key)
	return it.key
}

// priorityHeap orders items by priority, then by arrival.
type priorityHeap[K comparable] []*priorityItem[K]

func (h priorityHeap[K]) Len() int { return len(h) }

func (h priorityHeap[K]) Less(i, j int) bool {
	if h[i].priority != h[j].priority {
		return h[i].priority > h[j].priority
	}
	return h[i].seq < h[j].seq
}

func (h priorityHeap[K]) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].at, h[j].at = i, j
}

func (h *priorityHeap[K]) Push(x any) {
	it := x.(*priorityItem[K])
	it.at = len(*h)
	*h = append(*h, it)
}

func (h *priorityHeap[K]) Pop() any {
	old := *h
	n := len(old)
	it := old[n-1]
	old[n-1] = nil
	*h = old[:n-1]
	return it
}
