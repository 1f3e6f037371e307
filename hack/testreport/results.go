package main

import (
	"sort"
	"strings"
	"time"
)

// testResult is what one run of one test (or subtest) came to.
type testResult struct {
	Package, Test string
	// Action is pass, fail or skip; empty while the test runs, and for
	// a test its package's end cut short (a timeout, a crash).
	Action  string
	Elapsed time.Duration
	Output  []string
}

// packageResult is what one package's test binary came to.
type packageResult struct {
	Package string
	Action  string // pass, fail, skip ("no test files"), or empty: never ended
	Elapsed time.Duration
	// Output is what the package printed outside any test (TestMain, a
	// build failure, a timeout's panic).
	Output []string
	Tests  []*testResult
	byName map[string]*testResult
}

// results accumulates the events of one or more `go test -json` runs.
type results struct {
	Packages []*packageResult
	byName   map[string]*packageResult
}

func newResults() *results { return &results{byName: map[string]*packageResult{}} }

func (r *results) pkg(name string) *packageResult {
	p := r.byName[name]
	if p == nil {
		p = &packageResult{Package: name, byName: map[string]*testResult{}}
		r.byName[name] = p
		r.Packages = append(r.Packages, p)
	}
	return p
}

func (p *packageResult) test(name string) *testResult {
	t := p.byName[name]
	if t == nil {
		t = &testResult{Package: p.Package, Test: name}
		p.byName[name] = t
		p.Tests = append(p.Tests, t)
	}
	return t
}

// add records one event; it returns the package or test the event ended,
// if any, for the caller to report as it happens.
func (r *results) add(e event) (endedPkg *packageResult, endedTest *testResult) {
	name := e.Package
	if name == "" {
		name = e.ImportPath
	}
	// Build output comes keyed by the import path of what failed to
	// build, which may be "pkg [pkg.test]"; it belongs to the package.
	if i := strings.Index(name, " "); i > 0 {
		name = name[:i]
	}
	p := r.pkg(name)
	elapsed := time.Duration(e.Elapsed * float64(time.Second))
	switch {
	case e.Action == "build-output":
		p.Output = append(p.Output, e.Output)
	case e.Action == "build-fail":
		p.Action = "fail"
		return p, nil
	case e.Test == "" && e.Action == "output":
		p.Output = append(p.Output, e.Output)
	case e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
		p.Action, p.Elapsed = e.Action, elapsed
		return p, nil
	case e.Test != "" && e.Action == "output":
		t := p.test(e.Test)
		t.Output = append(t.Output, e.Output)
	case e.Test != "" && e.Action == "run":
		p.test(e.Test)
	case e.Test != "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
		t := p.test(e.Test)
		t.Action, t.Elapsed = e.Action, elapsed
		return nil, t
	}
	return nil, nil
}

// topLevel tells whether a test name is not a subtest's.
func topLevel(name string) bool { return !strings.Contains(name, "/") }

// failedTests lists the tests of p that failed or never ended, in the
// order they started.
func (p *packageResult) failedTests() []*testResult {
	var out []*testResult
	for _, t := range p.Tests {
		if t.Action == "fail" || (t.Action == "" && p.Action != "pass") {
			out = append(out, t)
		}
	}
	return out
}

// slowest returns the n slowest top-level tests of every package.
func (r *results) slowest(n int) []*testResult {
	var all []*testResult
	for _, p := range r.Packages {
		for _, t := range p.Tests {
			if topLevel(t.Test) && t.Action != "" {
				all = append(all, t)
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Elapsed > all[j].Elapsed })
	if len(all) > n {
		all = all[:n]
	}
	return all
}

// counts tells how many packages passed and failed (packages without
// tests count as neither).
func (r *results) counts() (passed, failed int) {
	for _, p := range r.Packages {
		switch {
		case p.Action == "pass" && len(p.Tests) > 0:
			passed++
		case p.Action == "fail", p.Action == "" && len(p.Tests) > 0:
			failed++
		}
	}
	return passed, failed
}
