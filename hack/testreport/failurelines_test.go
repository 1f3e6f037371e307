package main

import (
	"strings"
	"testing"
)

func TestFailureLines(t *testing.T) {
	cases := []struct {
		name   string
		output []string
		want   []string
	}{
		{
			name:   "assertions end the output",
			output: []string{"=== RUN   TestA\n", "    a_test.go:9: want 1, got 2\n", "--- FAIL: TestA (1.0s)\n"},
		},
		{
			name: "a log after the assertions",
			output: []string{
				"    a_test.go:9: case x: error lacks \"y\":\n",
				"        Error from server: z\n",
				"    a_test.go:12: stored: w\n",
				"    apiserver.go:63: mco-apiserver log:\n",
				"        I1207 shutting down\n",
				"--- FAIL: TestA (1.0s)\n",
			},
			want: []string{
				"    a_test.go:9: case x: error lacks \"y\":\n",
				"        Error from server: z\n",
				"    a_test.go:12: stored: w\n",
			},
		},
		{
			name:   "no assertion lines",
			output: []string{"    helper.go:3: log\n", "--- FAIL: TestA (1.0s)\n"},
		},
	}
	for _, c := range cases {
		got := failureLines(c.output)
		if strings.Join(got, "") != strings.Join(c.want, "") {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestPrintFailedTestRepeatsAssertionsBeforeItsEnd(t *testing.T) {
	tr := &testResult{Test: "TestA", Action: "fail", Output: []string{
		"    a_test.go:9: accepted\n",
		"    apiserver.go:63: log:\n",
		"        I1207 last line\n",
		"--- FAIL: TestA (1.0s)\n",
	}}
	var out strings.Builder
	printFailedTest(&out, tr)
	want := "    a_test.go:9: accepted\n    apiserver.go:63: log:\n        I1207 last line\n" +
		"=== TestA failed (its assertions again, after the log above):\n    a_test.go:9: accepted\n--- FAIL: TestA (1.0s)\n"
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}
