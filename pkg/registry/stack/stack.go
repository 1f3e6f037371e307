// Package stack gives the goroutine that writes an object the stack the
// write needs before it goes deep.
//
// A goroutine starts with a small stack (the average the runtime saw at
// its last collection, which in an apiserver is dominated by thousands of
// idle watch goroutines) and doubles it each time a call does not fit,
// copying every frame already on it and adjusting their pointers. An
// update runs in a goroutine of its own (the request finisher's) and goes
// some fifty frames deep through storage and field management, doubling
// its stack on the way, each time with all those frames to walk. Growing
// once, where the update starts, copies almost nothing.
package stack

// Size is the stack a write is given up front: more than an update of
// mco-apiserver's largest objects uses.
const Size = 64 << 10

// frame is the size of the frame Grow reserves: with what is already on
// the stack, the runtime doubles it to Size in one step.
const frame = Size / 2

// Grow grows the calling goroutine's stack to Size unless it is that
// large already.
func Grow() { grow(0) }

// grow needs a frame of the given size; the runtime grows the stack to fit
// it before grow runs. The index keeps the array, and so the frame.
//
//go:noinline
func grow(i int) byte {
	var b [frame]byte
	return b[i&(frame-1)]
}
