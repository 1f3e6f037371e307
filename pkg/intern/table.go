// Package intern keeps one copy of the strings that repeat across the
// objects mco's caches hold: label and annotation keys and values,
// namespaces, finalizers, owners' kinds, managedFields' managers. A decoder
// gives each object its own copy of each; in a cache of tens of thousands
// of objects most are equal. (managedFields' field sets are interned by
// apimachinery itself, built with the fieldsv1string tag:
// hack/build-env.sh.)
package intern

import (
	"strings"
	"sync"
)

// String returns the canonical copy of s. Strings longer than maxString
// (kubectl's last-applied-configuration, say) are rarely equal and are
// returned as they are.
func String(s string) string {
	if s == "" || len(s) > maxString {
		return s
	}
	return stringTable.get(s)
}

const (
	maxString = 512
	// generation bounds each of a table's two generations, in entries
	// and in bytes.
	generation      = 1 << 16
	generationBytes = 16 << 20
)

var stringTable = newTable(generation, generationBytes)

// table holds its strings strongly, in two generations: a string seen
// again while in either stays canonical; when the young one is full, the
// old one is dropped and the young one takes its place. The table stays
// bounded however many distinct strings pass through, and a string nobody
// uses any more goes within two generations. (Package unique holds its
// strings weakly: once a garbage collection finds no handle — and an
// object keeps the string, never a handle — the next equal string becomes
// a new canonical copy, so objects decoded in different GC cycles would
// not share.)
type table struct {
	mu            sync.Mutex
	max, maxBytes int
	young, old    map[string]string
	youngBytes    int
}

func newTable(max, maxBytes int) *table {
	return &table{max: max, maxBytes: maxBytes, young: map[string]string{}, old: map[string]string{}}
}

// get returns the canonical copy of s; a new one is a copy of s, so that
// the table never keeps alive a larger string s may be part of.
func (t *table) get(s string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if c, ok := t.young[s]; ok {
		return c
	}
	c, ok := t.old[s]
	if !ok {
		c = strings.Clone(s)
	}
	if len(t.young) >= t.max || t.youngBytes+len(c) > t.maxBytes {
		t.old, t.young, t.youngBytes = t.young, make(map[string]string, len(t.young)), 0
	}
	t.young[c] = c
	t.youngBytes += len(c)
	return c
}

// size is how many strings the table holds.
func (t *table) size() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.young) + len(t.old)
}
