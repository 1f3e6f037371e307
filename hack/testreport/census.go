package main

import (
	"fmt"
	"io"
	"sort"
	"text/tabwriter"
	"time"
)

// censusRow is one test across runs of its package.
type censusRow struct {
	Package, Test     string
	Runs, Failures    int
	Longest, Shortest time.Duration
}

// census counts, per top-level test, the runs and failures over several
// runs of the same packages (one results per run). A test that a run
// started and never ended (a timeout, a crash) counts as failed; a
// package that failed without a failed test (a failed TestMain, a build
// failure) counts as a failure of the package itself, under the name
// "(package)".
func census(runs []*results) []censusRow {
	rows := map[string]*censusRow{}
	var order []string
	row := func(pkg, test string) *censusRow {
		k := pkg + "\x00" + test
		if rows[k] == nil {
			rows[k] = &censusRow{Package: pkg, Test: test}
			order = append(order, k)
		}
		return rows[k]
	}
	for _, r := range runs {
		for _, p := range r.Packages {
			if p.Package == "" || (len(p.Tests) == 0 && p.Action != "fail") {
				continue
			}
			failedTest := false
			for _, t := range p.Tests {
				if !topLevel(t.Test) || t.Action == "skip" {
					continue
				}
				c := row(p.Package, t.Test)
				c.Runs++
				if t.Action == "fail" || t.Action == "" {
					c.Failures++
					failedTest = true
				}
				if t.Elapsed > c.Longest {
					c.Longest = t.Elapsed
				}
				if c.Shortest == 0 || t.Elapsed < c.Shortest {
					c.Shortest = t.Elapsed
				}
			}
			c := row(p.Package, "(package)")
			c.Runs++
			if p.Action != "pass" && !failedTest {
				c.Failures++
			}
		}
	}
	out := make([]censusRow, 0, len(order))
	for _, k := range order {
		out = append(out, *rows[k])
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Failures > out[j].Failures })
	return out
}

// printCensus prints every test with its failures first, then the total,
// and returns the total.
func printCensus(w io.Writer, rows []censusRow, runs int) int {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "FAILURES\tRUNS\tSHORTEST\tLONGEST\tTEST\n")
	failures := 0
	for _, c := range rows {
		failures += c.Failures
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s.%s\n", c.Failures, c.Runs, seconds(c.Shortest), seconds(c.Longest), shortPackage(c.Package), c.Test)
	}
	tw.Flush()
	fmt.Fprintf(w, "%d runs, %d tests, %d failures\n", runs, len(rows), failures)
	return failures
}
