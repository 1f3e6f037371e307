package lua

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"
)

// Sandbox limits of one Lua state.
const (
	// callStackSize bounds the depth of Lua calls (recursion).
	callStackSize = 256
	// registrySize and registryMaxSize bound the value stack.
	registrySize    = 1024
	registryMaxSize = 256 * 1024
)

// safeOsFuncs are what the sandbox keeps of Lua's os library, as Karmada
// does: the clock and calendar, nothing that touches the process, files or
// environment.
var safeOsFuncs = []string{"date", "time"}

// unavailableBaseFuncs are the base functions Karmada's sandbox takes away:
// file loading, code loading, environments, metatables and raw access.
// print is taken away too: a controller has no terminal.
var unavailableBaseFuncs = []string{
	"collectgarbage", "dofile", "getfenv", "getmetatable", "load", "loadfile", "loadstring",
	"rawequal", "rawget", "rawset", "setfenv", "setmetatable", "module", "newproxy", "print", "_printregs",
}

// safeStringFuncs are what the sandbox keeps of Lua's string library, as
// Karmada does: no gsub, rep or dump.
var safeStringFuncs = []string{"byte", "char", "find", "format", "len", "lower", "match", "reverse", "sub", "upper", "gmatch"}

// maxStringArg bounds the strings the string functions take, as Karmada
// does: they run in Go, where neither the time limit nor the memory watch
// can stop them.
const maxStringArg = 1000000

// newState returns a Lua 5.1 state with the libraries scripts may use:
// base (without loading, environments, metatables and printing), package
// (require finds only the preloaded modules), table, string (without gsub,
// rep and dump), math, os (time and date only), and the kube module. There
// is no io, debug or coroutine library.
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
	for _, name := range unavailableBaseFuncs {
		g.RawSetString(name, l.NewFunction(unavailable(name)))
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

	// string: the safe functions, with bounded arguments. Methods on
	// strings (s:upper()) find them through the strings' metatable.
	full = l.GetField(g, lua.StringLibName).(*lua.LTable)
	safe = l.CreateTable(0, len(safeStringFuncs)+1)
	for _, name := range safeStringFuncs {
		safe.RawSetString(name, l.NewFunction(boundedStrings(name, full.RawGetString(name))))
	}
	safe.RawSetString("gfind", safe.RawGetString("gmatch"))
	for _, name := range []string{"gsub", "rep", "dump"} {
		safe.RawSetString(name, l.NewFunction(unavailable("string."+name)))
	}
	g.RawSetString(lua.StringLibName, safe)
	loaded.RawSetString(lua.StringLibName, safe)
	if mt, ok := l.GetMetatable(lua.LString("")).(*lua.LTable); ok {
		mt.RawSetString("__index", safe)
	}
}

// unavailable is a function raising that name is not available to
// interpreter scripts.
func unavailable(name string) lua.LGFunction {
	return func(l *lua.LState) int {
		l.RaiseError("%s is not available to resource interpreter scripts", name)
		return 0
	}
}

// boundedStrings wraps a string function, refusing string arguments longer
// than maxStringArg.
func boundedStrings(name string, f lua.LValue) lua.LGFunction {
	return func(l *lua.LState) int {
		top := l.GetTop()
		l.Push(f)
		for i := 1; i <= top; i++ {
			if s, ok := l.Get(i).(lua.LString); ok && len(s) > maxStringArg {
				l.RaiseError("string.%s: argument %d is %d bytes long, above the sandbox's limit of %d", name, i, len(s), maxStringArg)
			}
			l.Push(l.Get(i))
		}
		l.Call(top, lua.MultRet)
		return l.GetTop() - top
	}
}
