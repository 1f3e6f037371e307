package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// seconds formats d as go test does.
func seconds(d time.Duration) string { return fmt.Sprintf("%.1fs", d.Seconds()) }

// printPackageEnd prints what go test prints for a package without -v: the
// output of its failed tests (and of the package itself when it failed),
// then its ok or FAIL line.
func printPackageEnd(w io.Writer, p *packageResult) {
	if p.Action == "skip" || (p.Action == "pass" && len(p.Tests) == 0) {
		return // no test files
	}
	if p.Action != "pass" {
		for _, t := range p.failedTests() {
			if t.Action == "" {
				fmt.Fprintf(w, "=== %s did not finish\n", t.Test)
			}
			printFailedTest(w, t)
		}
		for _, l := range p.Output {
			if !strings.HasPrefix(l, "ok ") && !strings.HasPrefix(l, "FAIL\t") && l != "FAIL\n" && l != "PASS\n" {
				io.WriteString(w, l)
			}
		}
		fmt.Fprintf(w, "FAIL\t%s\t%s\n", p.Package, seconds(p.Elapsed))
		return
	}
	fmt.Fprintf(w, "ok  \t%s\t%s\n", p.Package, seconds(p.Elapsed))
}

// printFailedTest prints a failed test's output; when a log followed its
// assertions, those are repeated before its --- FAIL line.
func printFailedTest(w io.Writer, t *testResult) {
	again := failureLines(t.Output)
	for _, l := range t.Output {
		if again != nil && strings.HasPrefix(strings.TrimSpace(l), "--- FAIL: "+t.Test+" ") {
			fmt.Fprintf(w, "=== %s failed (its assertions again, after the log above):\n", t.Test)
			for _, a := range again {
				io.WriteString(w, a)
			}
			again = nil
		}
		io.WriteString(w, l)
	}
}

// printTestEnd prints one line for a top-level test that ended, so that a
// long suite shows its progress.
func printTestEnd(w io.Writer, t *testResult) {
	if !topLevel(t.Test) {
		return
	}
	fmt.Fprintf(w, "    --- %s: %s (%s) [%s]\n", strings.ToUpper(t.Action), t.Test, seconds(t.Elapsed), shortPackage(t.Package))
}

func shortPackage(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[i+1:]
	}
	return p
}

// printSummary prints each package's time, longest first, and the n
// slowest tests.
func printSummary(w io.Writer, r *results, n int) {
	var pkgs []*packageResult
	for _, p := range r.Packages {
		if p.Package != "" && len(p.Tests) > 0 {
			pkgs = append(pkgs, p)
		}
	}
	sort.SliceStable(pkgs, func(i, j int) bool { return pkgs[i].Elapsed > pkgs[j].Elapsed })
	var total time.Duration
	fmt.Fprintln(w, "Package times (each package's test binary, build excluded):")
	for _, p := range pkgs {
		total += p.Elapsed
		fmt.Fprintf(w, "%9s  %s  %s\n", seconds(p.Elapsed), result(p.Action), p.Package)
	}
	fmt.Fprintf(w, "%9s        (sum of %d packages)\n", seconds(total), len(pkgs))
	fmt.Fprintf(w, "The %d slowest tests:\n", n)
	for _, t := range r.slowest(n) {
		fmt.Fprintf(w, "%9s  %s  %s.%s\n", seconds(t.Elapsed), result(t.Action), shortPackage(t.Package), t.Test)
	}
	passed, failed := r.counts()
	fmt.Fprintf(w, "%d passed, %d failed\n", passed, failed)
}

func result(action string) string {
	switch action {
	case "pass":
		return "ok  "
	case "skip":
		return "skip"
	default:
		return "FAIL"
	}
}
