package main

import (
	"strings"
	"testing"
)

// jsonRun is a run of two packages as go test -json prints it: a passed
// one with a parallel test and a subtest, and a failed one whose second
// test never ended (a timeout).
const jsonRun = `{"Action":"start","Package":"example.com/a"}
{"Action":"run","Package":"example.com/a","Test":"TestFast"}
{"Action":"output","Package":"example.com/a","Test":"TestFast","Output":"=== RUN   TestFast\n"}
{"Action":"pass","Package":"example.com/a","Test":"TestFast","Elapsed":0.5}
{"Action":"run","Package":"example.com/a","Test":"TestSlow"}
{"Action":"run","Package":"example.com/a","Test":"TestSlow/one"}
{"Action":"pass","Package":"example.com/a","Test":"TestSlow/one","Elapsed":30}
{"Action":"pass","Package":"example.com/a","Test":"TestSlow","Elapsed":31}
{"Action":"output","Package":"example.com/a","Output":"ok  \texample.com/a\t31.6s\n"}
{"Action":"pass","Package":"example.com/a","Elapsed":31.6}
not json: the go command's own line
{"Action":"run","Package":"example.com/b","Test":"TestBroken"}
{"Action":"output","Package":"example.com/b","Test":"TestBroken","Output":"    b_test.go:9: want 1, got 2\n"}
{"Action":"fail","Package":"example.com/b","Test":"TestBroken","Elapsed":2}
{"Action":"run","Package":"example.com/b","Test":"TestHangs"}
{"Action":"output","Package":"example.com/b","Test":"TestHangs","Output":"    waiting\n"}
{"Action":"output","Package":"example.com/b","Output":"panic: test timed out after 1m0s\n"}
{"Action":"fail","Package":"example.com/b","Elapsed":60}
{"ImportPath":"example.com/c [example.com/c.test]","Action":"build-output","Output":"c.go:3:1: syntax error\n"}
{"ImportPath":"example.com/c [example.com/c.test]","Action":"build-fail"}
`

func TestStreamPrintsWhatGoTestPrints(t *testing.T) {
	var out strings.Builder
	if err := run([]string{"-tests"}, strings.NewReader(jsonRun), &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"--- PASS: TestSlow (31.0s) [a]\n",
		"ok  \texample.com/a\t31.6s\n",
		"not json: the go command's own line\n",
		"b_test.go:9: want 1, got 2\n",
		"=== TestHangs did not finish\n    waiting\n",
		"panic: test timed out after 1m0s\n",
		"FAIL\texample.com/b\t60.0s\n",
		"c.go:3:1: syntax error\n",
		"FAIL\texample.com/c\t0.0s\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "TestSlow/one") || strings.Contains(out.String(), "=== RUN   TestFast") {
		t.Errorf("output shows a subtest or a passed test's output:\n%s", out.String())
	}
}

func TestSummaryListsPackagesAndSlowestTests(t *testing.T) {
	r := newResults()
	if err := readEvents(strings.NewReader(jsonRun), func(e event) { r.add(e) }); err != nil {
		t.Fatal(err)
	}
	slow := r.slowest(2)
	if len(slow) != 2 || slow[0].Test != "TestSlow" || slow[1].Test != "TestBroken" {
		t.Errorf("slowest: %+v", slow)
	}
	if p, f := r.counts(); p != 1 || f != 2 {
		t.Errorf("counts: %d passed, %d failed; want 1 and 2", p, f)
	}
	var out strings.Builder
	printSummary(&out, r, 10)
	for _, want := range []string{"60.0s  FAIL  example.com/b", "31.6s  ok    example.com/a", "31.0s  ok    a.TestSlow", "1 passed, 2 failed"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
}

func TestCensusCountsFailuresPerTestOverRuns(t *testing.T) {
	pass := `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestA","Elapsed":1}
{"Action":"run","Package":"p","Test":"TestB"}
{"Action":"pass","Package":"p","Test":"TestB","Elapsed":2}
{"Action":"pass","Package":"p","Elapsed":3}
`
	tests := []struct {
		name string
		runs []string
		want map[string]int // test -> failures
	}{
		{
			name: "three clean runs count no failure",
			runs: []string{pass, pass, pass},
			want: map[string]int{"TestA": 0, "TestB": 0, "(package)": 0},
		},
		{
			name: "a test that failed once and one that never ended count once each",
			runs: []string{pass, `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"fail","Package":"p","Test":"TestA","Elapsed":1}
{"Action":"run","Package":"p","Test":"TestB"}
{"Action":"fail","Package":"p","Elapsed":3}
`},
			want: map[string]int{"TestA": 1, "TestB": 1, "(package)": 0},
		},
		{
			name: "a package that failed before any test counts against the package",
			runs: []string{pass, `{"Action":"output","Package":"p","Output":"e2e: bring up: timeout\n"}
{"Action":"fail","Package":"p","Elapsed":3}
`},
			want: map[string]int{"TestA": 0, "TestB": 0, "(package)": 1},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var runs []*results
			for _, s := range tc.runs {
				r := newResults()
				if err := readEvents(strings.NewReader(s), func(e event) { r.add(e) }); err != nil {
					t.Fatal(err)
				}
				runs = append(runs, r)
			}
			got := map[string]int{}
			for _, c := range census(runs) {
				got[c.Test] = c.Failures
			}
			for k, w := range tc.want {
				if got[k] != w {
					t.Errorf("%s: %d failures, want %d (all: %v)", k, got[k], w, got)
				}
			}
		})
	}
}
