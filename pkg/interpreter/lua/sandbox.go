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
	if err := seal(l); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

// sealedLibraries are the library tables scripts read through read-only
// proxies: a pooled state serves many scripts, and `string.upper = nil` in
// one must not reach the next.
var sealedLibraries = []string{lua.LoadLibName, lua.TabLibName, lua.StringLibName, lua.MathLibName, lua.OsLibName, KubeModuleName}

// seal puts every library behind a read-only proxy, in the globals and
// where require finds it (the kube module is loaded now for that).
func seal(l *lua.LState) error {
	if err := l.CallByParam(lua.P{Fn: l.GetGlobal("require"), NRet: 0, Protect: true}, lua.LString(KubeModuleName)); err != nil {
		return fmt.Errorf("load Lua module %q: %w", KubeModuleName, err)
	}
	g := l.G.Global
	pkg := l.GetField(g, lua.LoadLibName).(*lua.LTable)
	loaded := l.GetField(pkg, "loaded").(*lua.LTable)
	for _, name := range sealedLibraries {
		lib, ok := loaded.RawGetString(name).(*lua.LTable)
		if !ok {
			if lib, ok = g.RawGetString(name).(*lua.LTable); !ok {
				return fmt.Errorf("Lua library %q is not loaded", name)
			}
		}
		proxy := readOnly(l, name, lib)
		loaded.RawSetString(name, proxy)
		if name != KubeModuleName {
			g.RawSetString(name, proxy)
		}
	}
	// package.loaded itself (require reads the registry's copy).
	pkg.RawSetString("loaded", readOnly(l, "package.loaded", loaded))
	return nil
}

// readOnly is a proxy of lib that reads through to it and raises on writes.
func readOnly(l *lua.LState, name string, lib *lua.LTable) *lua.LTable {
	proxy := l.NewTable()
	meta := l.CreateTable(0, 3)
	meta.RawSetString("__index", lib)
	meta.RawSetString("__newindex", l.NewFunction(func(l *lua.LState) int {
		l.RaiseError("%s is read-only: a script may not change a library", name)
		return 0
	}))
	meta.RawSetString("__metatable", lua.LString("read-only"))
	l.SetMetatable(proxy, meta)
	return proxy
}

// newEnv is the environment of one script run: a copy of the globals (the
// base functions and the library proxies), so that a script assigns and
// clears names of its own alone — `error = nil` leaves error nil, as in a
// state of its own, and nothing it sets reaches the next script — with
// _G the environment itself.
func newEnv(l *lua.LState) *lua.LTable {
	env := l.CreateTable(0, 48)
	l.G.Global.ForEach(func(k, v lua.LValue) { env.RawSet(k, v) })
	env.RawSetString("_G", env)
	return env
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
