package lua

import (
	"fmt"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// Sandbox limits of one Lua state.
const (
	// callStackSize bounds the depth of Lua calls (recursion).
	callStackSize = 256
	// registrySize and registryMaxSize bound the value stack.
	registrySize    = 1024
	registryMaxSize = 256 * 1024
	// maxStringRep bounds what string.rep may build in one call: it runs in
	// Go, where neither the time limit nor the memory watch can stop it.
	maxStringRep = 16 << 20
)

// safeOsFuncs are what the sandbox keeps of Lua's os library: the clock
// and calendar, nothing that touches the process, files or environment.
var safeOsFuncs = []string{"clock", "date", "difftime", "time"}

// removedBaseFuncs are the base functions that read files or write to the
// process's output.
var removedBaseFuncs = []string{"dofile", "loadfile", "print", "_printregs"}

// newState returns a Lua 5.1 state with the libraries scripts may use:
// base (without file loading and printing), package (require finds only
// the preloaded modules), table, string (with a bounded rep), math, a safe
// os, and the kube module. There is no io, debug or coroutine library.
func newState() (*lua.LState, error) {
	l := lua.NewState(lua.Options{
		SkipOpenLibs:    true,
		CallStackSize:   callStackSize,
		RegistrySize:    registrySize,
		RegistryMaxSize: registryMaxSize,
	})
	for _, lib := range []struct {
		name string
		open lua.LGFunction
	}{
		{lua.LoadLibName, lua.OpenPackage},
		{lua.BaseLibName, lua.OpenBase},
		{lua.TabLibName, lua.OpenTable},
		{lua.StringLibName, lua.OpenString},
		{lua.MathLibName, lua.OpenMath},
		{lua.OsLibName, lua.OpenOs},
	} {
		if err := l.CallByParam(lua.P{Fn: l.NewFunction(lib.open), NRet: 0, Protect: true}, lua.LString(lib.name)); err != nil {
			l.Close()
			return nil, fmt.Errorf("open Lua library %q: %w", lib.name, err)
		}
	}
	restrict(l)
	l.PreloadModule(KubeModuleName, openKube)
	return l, nil
}

// restrict takes out of an opened state what a script must not reach.
func restrict(l *lua.LState) {
	g := l.G.Global
	for _, name := range removedBaseFuncs {
		g.RawSetString(name, lua.LNil)
	}
	loaded := l.GetField(l.GetField(g, lua.LoadLibName), "loaded").(*lua.LTable)

	// package: only the preload searcher, no search path.
	pkg := l.GetField(g, lua.LoadLibName).(*lua.LTable)
	loaders := l.CreateTable(1, 0)
	loaders.Append(l.GetField(pkg, "loaders").(*lua.LTable).RawGetInt(1))
	pkg.RawSetString("loaders", loaders)
	l.SetField(l.Get(lua.RegistryIndex), "_LOADERS", loaders)
	pkg.RawSetString("path", lua.LString(""))
	pkg.RawSetString("cpath", lua.LString(""))
	pkg.RawSetString("loadlib", lua.LNil)

	// os: the clock and calendar only.
	full := l.GetField(g, lua.OsLibName).(*lua.LTable)
	safe := l.CreateTable(0, len(safeOsFuncs))
	for _, name := range safeOsFuncs {
		safe.RawSetString(name, full.RawGetString(name))
	}
	g.RawSetString(lua.OsLibName, safe)
	loaded.RawSetString(lua.OsLibName, safe)

	// string.rep: bounded.
	str := l.GetField(g, lua.StringLibName).(*lua.LTable)
	str.RawSetString("rep", l.NewFunction(boundedRep))
}

// boundedRep is string.rep refusing results above maxStringRep bytes.
func boundedRep(l *lua.LState) int {
	s := l.CheckString(1)
	n := l.CheckInt(2)
	if n <= 0 || s == "" {
		l.Push(lua.LString(""))
		return 1
	}
	if n > maxStringRep/len(s) {
		l.RaiseError("string.rep: result of %d bytes is above the sandbox's limit of %d", int64(len(s))*int64(n), maxStringRep)
		return 0
	}
	l.Push(lua.LString(strings.Repeat(s, n)))
	return 1
}
