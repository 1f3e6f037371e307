package main

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json), build output
// included.
type event struct {
	Time       time.Time `json:"Time"`
	Action     string    `json:"Action"`
	Package    string    `json:"Package"`
	ImportPath string    `json:"ImportPath"`
	Test       string    `json:"Test"`
	Elapsed    float64   `json:"Elapsed"`
	Output     string    `json:"Output"`
}

// readEvents calls fn for each event read from r. A line that is not an
// event (what go prints before the test binaries run, a panic of the go
// command) is passed on as package-less output, so that nothing is lost.
func readEvents(r io.Reader, fn func(event)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		var e event
		if !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &e) != nil {
			fn(event{Action: "output", Output: line + "\n"})
			continue
		}
		fn(e)
	}
	return sc.Err()
}
