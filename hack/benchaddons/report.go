package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mco-org/mco/hack/internal/benchkit"
)

// controllerManager names mco-controller-manager among the processes.
const controllerManager = "mco-controller-manager"

// Targets (the issue's): renders equal the distinct inputs; per (add-on,
// cluster) at most this much controller-manager CPU and this many writes
// beyond the add-on's own Works.
const (
	targetCPUms  = 15.0
	targetWrites = 6.0
)

// result is what one run measured.
type result struct {
	o *options

	healthy time.Duration // from the first create until every add-on was Ready
	wall    time.Duration // until mco was quiet
	cpu     []benchkit.CPUShare
	rest    []benchkit.CPUShare // the idle control plane, before, over restFor
	restFor time.Duration
	// addonCPU is what the add-ons' own code took of the profiled CPU.
	addonCPU, profiledCPU time.Duration
	writes                benchkit.Delta
	renders               float64
	peakRSS               []rss
}

type rss struct {
	process string
	mib     float64
}

// pairs is the (add-on, cluster) count.
func (r *result) pairs() int { return r.o.addons * r.o.members }

// distinct is the (add-on, values, capabilities) sets: two value sets per
// add-on, every member of the same version and APIs.
func (r *result) distinct() int { return r.o.addons * len(groups) }

// workWrites are the writes of Works and their status: the add-on's own
// Works, which the target leaves aside.
func (r *result) workWrites() float64 {
	var n float64
	for k, v := range r.writes.ByKey {
		if strings.HasSuffix(strings.SplitN(k, "/", 2)[0], " works") {
			n += v
		}
	}
	return n
}

func (r *result) print(w io.Writer) error {
	pairs := float64(r.pairs())
	idleMs := benchkit.MsPer(r.rest, controllerManager, 1) / r.restFor.Seconds() * r.wall.Seconds()
	total := benchkit.MsPer(r.cpu, controllerManager, 1)
	cmMs := (total - idleMs) / pairs
	other := (r.writes.Total - r.workWrites()) / pairs
	fmt.Fprintf(w, "%d add-ons of %d objects on %d bare members, two value sets per add-on (%d (add-on, cluster) pairs)\n",
		r.o.addons, r.o.objects, r.o.members, r.pairs())
	fmt.Fprintf(w, "every add-on Healthy everywhere after %s (mco quiet after %s)\n", r.healthy.Round(time.Millisecond), r.wall.Round(time.Millisecond))
	fmt.Fprintf(w, "renders: %.0f for %d distinct (add-on, values, capabilities) sets (%s)\n", r.renders, r.distinct(), benchkit.Verdict(int(r.renders) == r.distinct()))
	fmt.Fprintf(w, "CPU: %s\n", benchkit.CPULine(r.cpu))
	ownMs := benchkit.Ms(r.addonCPU) / pairs
	fmt.Fprintf(w, "mco-controller-manager CPU per (add-on, cluster): %.2f ms beyond its idle rate (idle %.0f ms of %.0f over the run), "+
		"of which the add-ons' own code (render, decide, write Works and status) %.2f ms, the rest what the objects' Works cost (target <= %.0f beyond the Works: %s)\n",
		cmMs, idleMs, total, ownMs, targetCPUms, benchkit.Verdict(ownMs <= targetCPUms))
	fmt.Fprintf(w, "mco writes: %.0f (%s), %.0f Events\n", r.writes.Total, benchkit.Largest(r.writes.ByKey, 8), r.writes.Events)
	fmt.Fprintf(w, "writes per (add-on, cluster): %.2f in all, %.2f beyond its Works (target <= %.0f: %s)\n",
		r.writes.Total/pairs, other, targetWrites, benchkit.Verdict(other <= targetWrites))
	var peaks []string
	for _, p := range r.peakRSS {
		peaks = append(peaks, fmt.Sprintf("%s %.0f MiB", p.process, p.mib))
	}
	fmt.Fprintf(w, "peak RSS: %s\n", strings.Join(peaks, ", "))
	summary := map[string]any{
		"addons": r.o.addons, "objects": r.o.objects, "members": r.o.members,
		"healthySeconds": benchkit.Round(r.healthy.Seconds(), 2), "renders": r.renders, "distinctInputs": r.distinct(),
		"controllerManagerCPUmsPerPair": benchkit.Round(cmMs, 2), "addonCodeCPUmsPerPair": benchkit.Round(ownMs, 2),
		"writesPerPair": benchkit.Round(r.writes.Total/pairs, 2), "writesPerPairBeyondWorks": benchkit.Round(other, 2),
		"events": r.writes.Events,
	}
	for _, p := range r.peakRSS {
		summary["peakRSSMiB."+p.process] = benchkit.Round(p.mib, 0)
	}
	raw, err := json.Marshal(summary)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(raw))
	return err
}
