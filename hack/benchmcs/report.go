package main

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/mco-org/mco/hack/internal/benchkit"
)

// result is what one run measured.
type result struct {
	o         *options
	setUp     time.Duration    // from the providers' slices written until every consumer held them
	latencies []time.Duration  // per change, until every consumer held it
	writes    []benchkit.Delta // over the changes: mco-apiserver first, then each consumer
}

func (r *result) print(w io.Writer) error {
	n := float64(r.o.changes)
	fmt.Fprintf(w, "a Service with %d endpoints in %d providers (%d a slice) dispatched by a MultiClusterService to %d consumers, on bare members\n",
		r.o.endpoints, r.o.providers, perSlice, r.o.consumers)
	fmt.Fprintf(w, "set-up: every consumer held every endpoint %s after the providers' slices were written\n", r.setUp.Round(time.Millisecond))
	fmt.Fprintf(w, "one endpoint change, until every consumer holds it: %s\n", benchkit.LatencyLine(r.latencies))
	var consumers float64
	for _, d := range r.writes {
		fmt.Fprintf(w, "writes to %s per change: %.2f (%s), events %.2f\n", d.Server, d.Total/n, benchkit.Largest(d.ByKey, 4), d.Events/n)
		if d.Server != mcoServer {
			consumers += d.Total
		}
	}
	raw, err := json.Marshal(map[string]any{
		"endpoints": r.o.endpoints, "providers": r.o.providers, "consumers": r.o.consumers, "changes": r.o.changes,
		"setUpSeconds":            benchkit.Round(r.setUp.Seconds(), 2),
		"p50Ms":                   benchkit.Round(benchkit.Ms(benchkit.Percentile(r.latencies, 0.5)), 0),
		"p99Ms":                   benchkit.Round(benchkit.Ms(benchkit.Percentile(r.latencies, 0.99)), 0),
		"mcoWritesPerChange":      benchkit.Round(r.writes[0].Total/n, 2),
		"consumerWritesPerChange": benchkit.Round(consumers/n, 2),
		"mcoEventWritesPerChange": benchkit.Round(r.writes[0].Events/n, 2),
	})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(raw))
	return err
}
