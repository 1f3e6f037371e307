package stack

import (
	"sync"
	"testing"
)

// deep recurses n frames of a few hundred bytes each, as a request's
// handlers do.
//
//go:noinline
func deep(n int) int {
	var pad [256]byte
	pad[n&255] = byte(n)
	if n == 0 {
		return int(pad[0])
	}
	return deep(n-1) + int(pad[n&255])
}

// BenchmarkRequestGoroutine compares a fresh goroutine that goes 150
// frames deep (~45 KiB) with the stack grown up front and without.
func BenchmarkRequestGoroutine(b *testing.B) {
	for _, tc := range []struct {
		name string
		grow bool
	}{{"growing as it goes", false}, {"grown first", true}} {
		b.Run(tc.name, func(b *testing.B) {
			var wg sync.WaitGroup
			for b.Loop() {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if tc.grow {
						Grow()
					}
					deep(150)
				}()
				wg.Wait()
			}
		})
	}
}
