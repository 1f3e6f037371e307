package differential

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"
)

// Drifts maps a case name to the summary of how mco differs on it.
type Drifts map[string]string

const driftsHeader = `# Cases where mco-apiserver differs from kube-apiserver 1.37 today, one per line:
# "<case>: <difference>; <difference>...". Generated; do not edit by hand:
#   go test ./test/differential/ -run TestDifferential -update-drifts
# The test fails on a differing case missing here, and on a case listed
# here that no longer differs.
`

// ReadDrifts reads a known-drifts file; a missing file holds none.
func ReadDrifts(path string) (Drifts, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Drifts{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d := Drifts{}
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; s.Scan(); n++ {
		line := strings.TrimSpace(s.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, summary, ok := strings.Cut(line, ": ")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want \"<case>: <summary>\"", path, n)
		}
		d[name] = summary
	}
	return d, s.Err()
}

// WriteDrifts writes d sorted by case name.
func WriteDrifts(path string, d Drifts) error {
	var b strings.Builder
	b.WriteString(driftsHeader)
	for _, name := range sortedKeys(d) {
		fmt.Fprintf(&b, "%s: %s\n", name, d[name])
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// Verdict sorts the cases of a run against the known drifts.
type Verdict struct {
	Run, Identical int
	// Known differ and are listed; New differ and are not; Fixed are
	// listed and no longer differ; Changed are listed and differ otherwise.
	Known, New, Fixed, Changed []string
}

// Judge compares results (case name to summary, "" when identical) with
// the known drifts. Listed cases that did not run are not judged.
func Judge(results map[string]string, known Drifts) Verdict {
	v := Verdict{Run: len(results)}
	for _, name := range sortedKeys(results) {
		summary := results[name]
		listed, isKnown := known[name]
		switch {
		case summary == "" && isKnown:
			v.Fixed = append(v.Fixed, name)
			v.Identical++
		case summary == "":
			v.Identical++
		case !isKnown:
			v.New = append(v.New, name)
		default:
			v.Known = append(v.Known, name)
			if listed != summary {
				v.Changed = append(v.Changed, name)
			}
		}
	}
	return v
}

// Updated returns the known drifts after a run: the cases that ran as they
// are now, the others as they were (a default run keeps what a longer run
// listed).
func Updated(known Drifts, results map[string]string) Drifts {
	out := Drifts{}
	for name, s := range known {
		if _, ran := results[name]; !ran {
			out[name] = s
		}
	}
	for name, s := range results {
		if s != "" {
			out[name] = s
		}
	}
	return out
}

// Summarize is a case's line in known-drifts.txt: its distinct generic
// differences, the first few of them.
func Summarize(diffs []Difference) string {
	const max = 8
	var groups []string
	seen := map[string]bool{}
	for _, d := range diffs {
		if !seen[d.Group] {
			seen[d.Group] = true
			groups = append(groups, d.Group)
		}
	}
	if len(groups) > max {
		groups = append(groups[:max], fmt.Sprintf("(+%d more)", len(groups)-max))
	}
	return strings.Join(groups, "; ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
