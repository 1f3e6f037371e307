package events

import (
	"hash/fnv"
	"sync"

	"k8s.io/client-go/tools/record"
)

// Sharded spreads Events over several recorders by the object they are
// about. A recorder writes its Events one at a time and drops what its
// queue cannot hold, so one recorder for a busy controller loses Events
// under load; several write side by side. Events about one object always go
// through the same recorder, in the order they were made.
type Sharded struct {
	newRecorder func() record.EventRecorder

	mu        sync.Mutex
	recorders []record.EventRecorder // made on first use
}

// Shards is how many recorders a busy controller spreads its Events over.
const Shards = 4

// NewSharded returns shards recorders made by newRecorder.
func NewSharded(shards int, newRecorder func() record.EventRecorder) *Sharded {
	return &Sharded{newRecorder: newRecorder, recorders: make([]record.EventRecorder, max(shards, 1))}
}

// For returns the recorder of the object named key (namespace/name, say).
func (s *Sharded) For(key string) record.EventRecorder {
	h := fnv.New32a()
	_, _ = h.Write([]byte(key))
	i := int(h.Sum32() % uint32(len(s.recorders)))
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.recorders[i] == nil {
		s.recorders[i] = s.newRecorder()
	}
	return s.recorders[i]
}
