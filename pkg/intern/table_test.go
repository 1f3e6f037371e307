package intern

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// fresh returns s in memory of its own, as a decoder builds it.
func fresh(s string) string { return string([]byte(s)) }

func same(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }

func TestStringKeepsCopiesAcrossGarbageCollections(t *testing.T) {
	a := String(fresh("propagationpolicy.karmada.io/permanent-id"))
	runtime.GC()
	runtime.GC()
	b := String(fresh("propagationpolicy.karmada.io/permanent-id"))
	if !same(a, b) {
		t.Error("a string interned before two garbage collections is kept twice")
	}
}

func TestString(t *testing.T) {
	String(fresh("seen"))
	cases := []struct {
		name      string
		in        string
		wantMoved bool // the result is a canonical copy, not the argument
	}{
		{name: "empty", in: ""},
		{name: "longer than the limit", in: strings.Repeat("x", maxString+1)},
		{name: "seen before", in: fresh("seen"), wantMoved: true},
		// The table keeps a copy, not the larger string this one is part of.
		{name: "new, part of a larger string", in: fresh("a-new-value, then much more")[:11], wantMoved: true},
	}
	for _, c := range cases {
		got := String(c.in)
		if got != c.in {
			t.Errorf("%s: content changed: %q", c.name, got)
		}
		if moved := !same(got, c.in); moved != c.wantMoved {
			t.Errorf("%s: canonical copy returned: %v, want %v", c.name, moved, c.wantMoved)
		}
	}
}

// TestTableIsBounded: a table holds two generations at most, bounded in
// entries and in bytes; a string used in the older one moves to the
// younger and stays canonical.
func TestTableIsBounded(t *testing.T) {
	cases := []struct {
		name          string
		max, maxBytes int
		maxHeld       int
	}{
		{name: "by entries", max: 10, maxBytes: 1 << 20, maxHeld: 20},
		{name: "by bytes", max: 1 << 20, maxBytes: 40, maxHeld: 20},
	}
	for _, c := range cases {
		tb := newTable(c.max, c.maxBytes)
		kept := tb.get(fresh("kept"))
		first := tb.get(fresh("s0000"))
		for n := 1; n < 1000; n++ {
			tb.get(fmt.Sprintf("s%04d", n))
			if n%5 == 0 && !same(tb.get(fresh("kept")), kept) {
				t.Fatalf("%s: after %d strings a string in use is no longer canonical", c.name, n)
			}
			if s := tb.size(); s > c.maxHeld {
				t.Fatalf("%s: the table holds %d strings, want %d at most", c.name, s, c.maxHeld)
			}
		}
		if same(tb.get(fresh("s0000")), first) {
			t.Errorf("%s: a string not seen for many generations is still held", c.name)
		}
	}
}

func TestTableConcurrently(t *testing.T) {
	tb := newTable(64, 1<<20)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < 2000; n++ {
				if s := fmt.Sprintf("v%d", n%100); tb.get(s) != s {
					t.Errorf("content of %q changed", s)
					return
				}
			}
		}()
	}
	wg.Wait()
}
