// Command testreport reads the output of `go test -json` and prints what
// the project's test commands show:
//
//	testreport [-tests] < run.json       go test's usual lines as each package ends (with -tests, a line per top-level test too)
//	testreport -summary run.json...      each package's time and the ten slowest tests
//	testreport -census run.json...       per test, its failures over several runs of the same packages (one file per run); exits 1 on any
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	err := run(os.Args[1:], os.Stdin, os.Stdout)
	switch {
	case errors.Is(err, errFailures):
		os.Exit(1)
	case err != nil:
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(2)
	}
}

// errFailures is -census's answer when a run had a failure.
var errFailures = errors.New("failures")

func run(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("testreport", flag.ContinueOnError)
	tests := fs.Bool("tests", false, "print a line for each top-level test as it ends")
	summary := fs.Bool("summary", false, "print package times and the slowest tests of the files named")
	cens := fs.Bool("census", false, "print each test's failures over the runs in the files named, one run a file")
	slowest := fs.Int("slowest", 10, "how many of the slowest tests -summary lists")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case *summary:
		r := newResults()
		for _, f := range fs.Args() {
			if err := readFile(f, r); err != nil {
				return err
			}
		}
		printSummary(stdout, r, *slowest)
	case *cens:
		var runs []*results
		for _, f := range fs.Args() {
			r := newResults()
			if err := readFile(f, r); err != nil {
				return err
			}
			runs = append(runs, r)
		}
		if printCensus(stdout, census(runs), len(runs)) > 0 {
			return errFailures
		}
	default:
		r := newResults()
		return readEvents(stdin, func(e event) {
			if e.Package == "" && e.ImportPath == "" {
				io.WriteString(stdout, e.Output) // not from a test binary
				return
			}
			p, t := r.add(e)
			switch {
			case p != nil:
				printPackageEnd(stdout, p)
			case t != nil && *tests:
				printTestEnd(stdout, t)
			}
		})
	}
	return nil
}

func readFile(name string, r *results) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := readEvents(f, func(e event) { r.add(e) }); err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	return nil
}
