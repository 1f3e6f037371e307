package benchkit

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// Percentile is the nearest-rank percentile (q in (0, 1]).
func Percentile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

// Ms is a duration in milliseconds.
func Ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Round rounds to digits decimals.
func Round(v float64, digits int) float64 {
	f := math.Pow(10, float64(digits))
	return math.Round(v*f) / f
}

// Verdict renders a target's outcome.
func Verdict(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

// LatencyLine renders the usual percentiles of d.
func LatencyLine(d []time.Duration) string {
	return fmt.Sprintf("p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms",
		Ms(Percentile(d, 0.50)), Ms(Percentile(d, 0.90)), Ms(Percentile(d, 0.99)), Ms(Percentile(d, 1)))
}
