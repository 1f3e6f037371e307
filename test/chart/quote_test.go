package chart

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// hashAction is a template action printing a hash or a random string.
var hashAction = regexp.MustCompile(`\{\{-?\s*([^}]*\b(?:sha256sum|sha1sum|adler32sum|randNumeric|randAlphaNum|randAlpha|uuidv4)\b[^}]*?)\s*-?\}\}`)

var (
	assignment = regexp.MustCompile(`^\$\w+\s*:?=`)
	quoted     = regexp.MustCompile(`\|\s*(quote|squote|b64enc)\s*$`)
)

// TestGeneratedScalarsQuoted: a hash or random string printed into YAML is
// quoted. Unquoted, a hash made only of digits (or digits around one "e")
// reads as a number, and helm install fails on the annotation that should
// have been a string (seen once in CI on a checksum annotation).
func TestGeneratedScalarsQuoted(t *testing.T) {
	for _, dir := range []string{chart, agentChart} {
		files, err := filepath.Glob(filepath.Join(dir, "templates", "*"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range hashAction.FindAllStringSubmatch(string(b), -1) {
				pipe := m[1]
				if assignment.MatchString(pipe) {
					continue // an assignment prints nothing
				}
				if !quoted.MatchString(pipe) {
					t.Errorf("%s: %q prints a hash or random string unquoted", filepath.Base(f), m[0])
				}
			}
		}
	}
}
