package events

import (
	"fmt"
	"testing"

	"k8s.io/client-go/tools/record"
)

func TestShardedKeepsEachObjectOnOneRecorder(t *testing.T) {
	t.Parallel()
	made := 0
	s := NewSharded(4, func() record.EventRecorder {
		made++
		return record.NewFakeRecorder(1)
	})
	used := map[record.EventRecorder]bool{}
	for i := range 100 {
		key := fmt.Sprintf("bench/web-%d", i)
		r := s.For(key)
		if s.For(key) != r {
			t.Fatalf("%s got two recorders", key)
		}
		used[r] = true
	}
	if made != 4 || len(used) != 4 {
		t.Errorf("made %d recorders and used %d for 100 objects, want 4 and 4", made, len(used))
	}
	if one := NewSharded(0, func() record.EventRecorder { return record.NewFakeRecorder(1) }); one.For("a") != one.For("b") {
		t.Error("zero shards should mean one recorder")
	}
}
