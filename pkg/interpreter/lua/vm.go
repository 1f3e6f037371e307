// Package lua runs the Lua scripts of ResourceInterpreterCustomizations as
// Karmada runs them: Lua 5.1 on gopher-lua, in a sandbox without files,
// processes or output, with a time limit and a memory bound per call, and
// with objects passed in and out as Lua tables.
package lua

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"
)

// Defaults of a VM.
const (
	// DefaultTimeout is the time limit of one call, Karmada's.
	DefaultTimeout = time.Second
	// DefaultMemoryLimit bounds what one call may allocate.
	DefaultMemoryLimit = 256 << 20
)

// ErrTimeout and ErrMemory are wrapped by the errors of calls cut short.
var (
	ErrTimeout = errors.New("the script ran past its time limit")
	ErrMemory  = errors.New("the script allocated past its memory limit")
)

// Script is a compiled Lua chunk. It holds no state: each call runs the
// chunk afresh, in an environment of its own.
type Script struct {
	name  string
	proto *lua.FunctionProto
}

// Compile parses and compiles source; name appears in its error messages.
func Compile(name, source string) (*Script, error) {
	chunk, err := parse.Parse(strings.NewReader(source), name)
	if err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	proto, err := lua.Compile(chunk, name)
	if err != nil {
		return nil, fmt.Errorf("compile: %w", err)
	}
	return &Script{name: name, proto: proto}, nil
}

// VM runs scripts on a pool of sandboxed Lua states. It is safe for
// concurrent use.
type VM struct {
	pool        chan *lua.LState
	timeout     time.Duration
	memoryLimit uint64
	// allocated counts the process's allocations (tests replace it).
	allocated func() uint64
}

// Option changes a VM.
type Option func(*VM)

// WithTimeout sets the time limit of one call.
func WithTimeout(d time.Duration) Option { return func(vm *VM) { vm.timeout = d } }

// WithMemoryLimit sets how many bytes one call may allocate.
func WithMemoryLimit(bytes uint64) Option { return func(vm *VM) { vm.memoryLimit = bytes } }

// NewVM returns a VM keeping up to one idle state per CPU.
func NewVM(opts ...Option) *VM {
	vm := &VM{pool: make(chan *lua.LState, runtime.GOMAXPROCS(0)), timeout: DefaultTimeout, memoryLimit: DefaultMemoryLimit,
		allocated: allocated}
	for _, o := range opts {
		o(vm)
	}
	return vm
}

// Call runs script, then calls the global function fn it defines with
// args (Go values, converted with ToLua), and hands decode the nret values
// it returns. decode runs before the Lua state is reused; it must not keep
// the values.
func (vm *VM) Call(ctx context.Context, script *Script, fn string, nret int, decode func([]lua.LValue) error, args ...any) error {
	return vm.run(ctx, script, fn, func(l *lua.LState, f *lua.LFunction) error {
		in := make([]lua.LValue, len(args))
		for i, a := range args {
			var err error
			if in[i], err = ToLua(l, a); err != nil {
				return fmt.Errorf("pass argument %d to %s: %w", i+1, fn, err)
			}
		}
		if err := l.CallByParam(lua.P{Fn: f, NRet: nret, Protect: true}, in...); err != nil {
			return fmt.Errorf("call %s: %w", fn, err)
		}
		rets := make([]lua.LValue, nret)
		for i := range rets {
			rets[i] = l.Get(i - nret)
		}
		l.Pop(nret)
		return decode(rets)
	})
}

// Defines tells whether running script defines the global function fn.
// The chunk runs in the sandbox, under the time and memory limits.
func (vm *VM) Defines(ctx context.Context, script *Script, fn string) error {
	return vm.run(ctx, script, fn, func(*lua.LState, *lua.LFunction) error { return nil })
}

// run loads script in a pooled state under the time and memory limits
// and hands use the function fn it defines. The memory watch counts the
// whole process's allocations, so one hit may be another goroutine's
// doing: the call is made once more, on a fresh state, and only a second
// hit in a row is the script's.
func (vm *VM) run(ctx context.Context, script *Script, fn string, use func(*lua.LState, *lua.LFunction) error) error {
	err := vm.runOnce(ctx, script, fn, use)
	if errors.Is(err, ErrMemory) && ctx.Err() == nil {
		err = vm.runOnce(ctx, script, fn, use)
	}
	return err
}

// runOnce is one attempt of run. A state is reused only when use
// succeeds: a script cut short may leave it in any shape.
func (vm *VM) runOnce(ctx context.Context, script *Script, fn string, use func(*lua.LState, *lua.LFunction) error) error {
	l, err := vm.get()
	if err != nil {
		return err
	}
	healthy := false
	defer func() { vm.put(l, healthy) }()

	ctx, cancel := context.WithTimeoutCause(ctx, vm.timeout, ErrTimeout)
	defer cancel()
	watch := watchAllocations(vm.allocated, vm.memoryLimit, func() { cancel() })
	defer watch.stop()
	l.SetContext(ctx)
	defer l.RemoveContext()

	f, err := load(l, script, fn)
	if err == nil {
		err = use(l, f)
	}
	if err != nil {
		return vm.explain(ctx, watch, err)
	}
	healthy = true
	return nil
}

// load runs the chunk of script in a fresh environment (newEnv) and
// returns the function fn it defines.
func load(l *lua.LState, script *Script, fn string) (*lua.LFunction, error) {
	env := newEnv(l)
	chunk := l.NewFunctionFromProto(script.proto)
	chunk.Env = env
	if err := l.CallByParam(lua.P{Fn: chunk, NRet: 0, Protect: true}); err != nil {
		return nil, fmt.Errorf("run script: %w", err)
	}
	f, ok := env.RawGetString(fn).(*lua.LFunction)
	if !ok {
		return nil, fmt.Errorf("the script does not define function %s", fn)
	}
	return f, nil
}

// explain says why a call was cut short, when it was.
func (vm *VM) explain(ctx context.Context, watch *allocWatch, err error) error {
	switch {
	case watch.exceeded():
		return fmt.Errorf("%w (%d MiB): %v", ErrMemory, vm.memoryLimit>>20, err)
	case errors.Is(context.Cause(ctx), ErrTimeout):
		return fmt.Errorf("%w (%s): %v", ErrTimeout, vm.timeout, err)
	}
	return err
}

func (vm *VM) get() (*lua.LState, error) {
	select {
	case l := <-vm.pool:
		return l, nil
	default:
		return newState()
	}
}

// put keeps a state for reuse; a state whose call failed is dropped, as a
// script cut short may leave it in any shape.
func (vm *VM) put(l *lua.LState, healthy bool) {
	if !healthy {
		l.Close()
		return
	}
	l.SetTop(0)
	select {
	case vm.pool <- l:
	default:
		l.Close()
	}
}
