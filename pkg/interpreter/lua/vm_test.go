package lua

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// run compiles source and calls fn with args, returning its first result
// converted with the arguments as references (list: an empty result is a
// list).
func run(t *testing.T, vm *VM, source, fn string, list bool, args ...any) (any, error) {
	t.Helper()
	s, err := Compile("test", source)
	if err != nil {
		return nil, err
	}
	var out any
	err = vm.Call(context.Background(), s, fn, 1, func(rets []lua.LValue) error {
		var err error
		out, err = FromLua(rets[0], list, args...)
		return err
	}, args...)
	return out, err
}

func TestSandboxRefusesEscapes(t *testing.T) {
	t.Parallel()
	vm := NewVM()
	cases := []struct {
		name, body, wantErr string
	}{
		{"io is not there", `return io.open("/etc/passwd")`, "attempt to"},
		{"dofile is not there", `return dofile("/etc/passwd")`, "not available"},
		{"loadfile is not there", `return loadfile("/etc/passwd")`, "not available"},
		{"os.execute is not there", `return os.execute("true")`, "attempt to"},
		{"os.exit is not there", `return os.exit(1)`, "attempt to"},
		{"os.getenv is not there", `return os.getenv("HOME")`, "attempt to"},
		{"os.remove is not there", `return os.remove("/tmp/x")`, "attempt to"},
		{"require finds no file", `return require("io")`, "module io not found"},
		{"require of a path finds nothing", `return require("etc.passwd")`, "not found"},
		{"debug is not there", `return debug.getinfo(1)`, "attempt to"},
		{"coroutines are not there", `return coroutine.create(function() end)`, "attempt to"},
		{"print is not there", `print("x") return 1`, "not available"},
		{"string.rep is not there, as in Karmada", `return string.rep("x", 1e9)`, "not available"},
		{"string.gsub is not there, as in Karmada", `return string.gsub("x", "x", "y")`, "not available"},
		{"setmetatable is not there, as in Karmada", `return setmetatable({}, {})`, "not available"},
		{"getfenv is not there, as in Karmada", `return getfenv(0)`, "not available"},
		{"loadstring is not there, as in Karmada", `return loadstring("return 1")`, "not available"},
		{"rawset is not there, as in Karmada", `return rawset({}, "a", 1)`, "not available"},
		{"string arguments are bounded", `local s = "x" for i = 1, 21 do s = s .. s end return s:upper()`, "above the sandbox's limit"},
		{"package.loadlib is not there", `return package.loadlib("x", "y")`, "attempt to"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := run(t, vm, "function F() "+c.body+" end", "F", false)
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("got error %v, want one mentioning %q", err, c.wantErr)
			}
		})
	}
}

func TestSandboxKeepsWhatScriptsUse(t *testing.T) {
	t.Parallel()
	vm := NewVM()
	cases := []struct {
		name, body string
		want       any
	}{
		{"os.time", `return os.time() > 0`, true},
		{"os.date", `return type(os.date("!%Y-%m-%dT%H:%M:%SZ"))`, "string"},
		{"require os", `local os = require("os") return type(os.time)`, "function"},
		{"require kube", `local kube = require("kube") return type(kube.resourceAdd)`, "function"},
		{"string library", `return string.format("%s-%d", "a", 3)`, "a-3"},
		{"table library", `local t = {} table.insert(t, "x") return t`, []any{"x"}},
		{"math library", `return math.max(1, 4)`, int64(4)},
		{"pcall and error", `local ok, e = pcall(function() error("boom") end) return ok`, false},
		{"string methods", `return ("abc"):upper()`, "ABC"},
		{"string.gmatch", `local n = 0 for w in string.gmatch("a b c", "%a") do n = n + 1 end return n`, int64(3)},
		{"ipairs and pairs", `local n = 0 for _, v in ipairs({1, 2}) do n = n + v end for k, v in pairs({a = 3}) do n = n + v end return n`, int64(6)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := run(t, vm, "function F() "+c.body+" end", "F", false)
			if err != nil {
				t.Fatal(err)
			}
			if !equal(got, c.want) {
				t.Fatalf("got %#v, want %#v", got, c.want)
			}
		})
	}
}

func TestCallsDoNotShareGlobals(t *testing.T) {
	t.Parallel()
	vm := NewVM()
	if _, err := run(t, vm, `leaked = 1 function F() return leaked end`, "F", false); err != nil {
		t.Fatal(err)
	}
	got, err := run(t, vm, `function G() return leaked end`, "G", false)
	if err != nil || got != nil {
		t.Fatalf("a global of one script reached another: %v, %v", got, err)
	}
	_, err = run(t, vm, `function Other() end`, "F", false)
	if err == nil || !strings.Contains(err.Error(), "does not define function F") {
		t.Fatalf("a function of an earlier script was found: %v", err)
	}
}

func TestTimeLimit(t *testing.T) {
	t.Parallel()
	vm := NewVM(WithTimeout(100 * time.Millisecond))
	for name, body := range map[string]string{
		"a busy loop":               `while true do end`,
		"a loop catching its error": `while true do pcall(function() while true do end end) end`,
		"a loop in the chunk":       `end while true do`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			_, err := run(t, vm, "function F() "+body+" end", "F", false)
			if !errors.Is(err, ErrTimeout) {
				t.Fatalf("got %v, want a timeout", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Fatalf("the call took %s", d)
			}
		})
	}
	// The VM is still usable.
	if got, err := run(t, vm, `function F() return 1 end`, "F", false); err != nil || got != int64(1) {
		t.Fatalf("after timeouts: %v, %v", got, err)
	}
}

func TestMemoryLimit(t *testing.T) {
	t.Parallel()
	vm := NewVM(WithMemoryLimit(32<<20), WithTimeout(30*time.Second))
	for name, body := range map[string]string{
		"a growing table":   `local t = {} local i = 0 while true do i = i + 1 t[i] = {i} end`,
		"a doubling string": `local s = "x" while true do s = s .. s end`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := run(t, vm, "function F() "+body+" end", "F", false)
			if !errors.Is(err, ErrMemory) {
				t.Fatalf("got %v, want the memory limit", err)
			}
		})
	}
}

// TestMemoryHitIsTriedAgain: the memory watch counts the whole process,
// so a call cut short once is made again; only a second hit in a row is
// the script's.
func TestMemoryHitIsTriedAgain(t *testing.T) {
	t.Parallel()
	const busy = `function F() local n = 0 for i = 1, 5000000 do n = n + i end return n end`
	tests := []struct {
		name    string
		count   func(call uint64) uint64 // the process's allocations at the call-th reading
		wantErr bool
	}{
		{name: "someone else's burst during the first attempt is forgiven",
			count: func(call uint64) uint64 { return min(call-1, 1) << 31 }},
		{name: "allocations during every attempt are the script's",
			count: func(call uint64) uint64 { return call << 31 }, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			vm := NewVM(WithMemoryLimit(1<<30), WithTimeout(30*time.Second))
			var calls atomic.Uint64
			vm.allocated = func() uint64 { return tt.count(calls.Add(1)) }
			_, err := run(t, vm, busy, "F", false)
			if tt.wantErr != errors.Is(err, ErrMemory) || !tt.wantErr && err != nil {
				t.Fatalf("got %v, want the memory limit: %v", err, tt.wantErr)
			}
		})
	}
}

func TestDefines(t *testing.T) {
	t.Parallel()
	vm := NewVM(WithTimeout(100 * time.Millisecond))
	s, _ := Compile("t", `function GetReplicas(obj) return 1 end`)
	if err := vm.Defines(context.Background(), s, "GetReplicas"); err != nil {
		t.Fatal(err)
	}
	if err := vm.Defines(context.Background(), s, "Retain"); err == nil || !strings.Contains(err.Error(), "does not define function Retain") {
		t.Fatalf("got %v", err)
	}
	loop, _ := Compile("t", `while true do end function Retain() end`)
	if err := vm.Defines(context.Background(), loop, "Retain"); !errors.Is(err, ErrTimeout) {
		t.Fatalf("got %v, want a timeout", err)
	}
	if _, err := Compile("t", `function F( return end`); err == nil {
		t.Fatal("a script that does not parse compiled")
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestScriptsDoNotReachEachOther: a pooled state serves many scripts;
// what one sets or clears, globals and libraries alike, does not reach
// the next, and a global cleared is nil, not the library's.
func TestScriptsDoNotReachEachOther(t *testing.T) {
	t.Parallel()
	vm := NewVM() // one call at a time: each reuses the state before it
	steps := []struct {
		name, source, fn string
		want             any
		wantErr          string
	}{
		{name: "_G is the script's own environment", source: `function F() _G.leaked = 1 return leaked end`, fn: "F", want: int64(1)},
		{name: "what _G got does not reach the next script", source: `function F() return _G.leaked == nil and leaked == nil end`, fn: "F", want: true},
		// The writes run under pcall, so that the call succeeds and its
		// state serves the next step.
		{name: "a library may not be changed", source: `function F() local _, e = pcall(function() string.upper = nil end) return e end`, fn: "F", want: "string is read-only"},
		{name: "nor a library reached through require", source: `function F() local _, e = pcall(function() require("kube").resourceAdd = nil end) return e end`, fn: "F", want: "kube is read-only"},
		{name: "nor package.loaded", source: `function F() local _, e = pcall(function() package.loaded.string = {} end) return e end`, fn: "F", want: "package.loaded is read-only"},
		{name: "the libraries are whole for the next script", source: `function F() return string.upper("a") .. type(require("kube").resourceAdd) end`, fn: "F", want: "Afunction"},
		{name: "a base function cleared is nil, not the library's", source: `function F() error = nil return error == nil end`, fn: "F", want: true},
		{name: "and is back for the next script", source: `function F() return type(error) end`, fn: "F", want: "function"},
	}
	for _, s := range steps {
		got, err := run(t, vm, s.source, s.fn, false)
		if s.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), s.wantErr) {
				t.Fatalf("%s: got %v, %v; want an error naming %q", s.name, got, err, s.wantErr)
			}
			continue
		}
		if msg, ok := got.(string); ok && err == nil && strings.Contains(msg, "read-only") {
			if !strings.Contains(msg, s.want.(string)) {
				t.Fatalf("%s: got %q, want it to name %q", s.name, msg, s.want)
			}
			continue
		}
		if err != nil || !equal(got, s.want) {
			t.Fatalf("%s: got %#v, %v; want %#v", s.name, got, err, s.want)
		}
	}
}
