package main

import (
	"regexp"
	"strings"
)

// assertionLine matches the line a t.Error or t.Fatal in a _test.go file
// begins with, as go test indents it.
var assertionLine = regexp.MustCompile(`^\s+\S+_test\.go:\d+: `)

// maxRepeated bounds how many lines failureLines returns.
const maxRepeated = 60

// failureLines returns what a failed test's own assertions printed (each
// t.Error/t.Fatal line from a _test.go file and the lines it continues
// onto), when something else — a server's log shown at cleanup — was
// printed after them, so that a reader of the output's end sees why the
// test failed and not only the log's last lines. It returns nil when the
// assertions already end the output.
func failureLines(output []string) []string {
	var lines []string
	last := -1
	in := ""
	for i, l := range output {
		switch {
		case assertionLine.MatchString(l):
			in = l[:len(l)-len(strings.TrimLeft(l, " \t"))] + "    "
			lines = append(lines, l)
			last = i
		case in != "" && strings.HasPrefix(l, in):
			lines = append(lines, l)
			last = i
		default:
			in = ""
		}
	}
	if last < 0 || !printedAfter(output[last+1:]) {
		return nil
	}
	if len(lines) > maxRepeated {
		lines = append(lines[:maxRepeated:maxRepeated], "    ...\n")
	}
	return lines
}

// printedAfter tells whether rest holds more than the test's end lines.
func printedAfter(rest []string) bool {
	for _, l := range rest {
		if !strings.HasPrefix(strings.TrimSpace(l), "--- ") {
			return true
		}
	}
	return false
}
