package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/mco-org/mco/hack/internal/benchkit"
)

// controllerManager names mco-controller-manager among the processes.
const controllerManager = "mco-controller-manager"

// result is what one run measured.
type result struct {
	o *options

	setUp        time.Duration // from the first create until every rollout was complete
	rest, active *measured
	rolledOut    time.Duration // from the change until its rollout was complete
}

// measured is one window's figures.
type measured struct {
	wall   time.Duration
	cpu    []benchkit.CPUShare
	adds   map[string]float64 // mco-controller-manager's queue adds, by queue
	writes benchkit.Delta     // on mco-apiserver
}

// cpuMs is a process's CPU over the window in milliseconds.
func (m *measured) cpuMs(process string) float64 { return benchkit.MsPer(m.cpu, process, 1) }

// addsLine lists the queues' adds, largest first.
func (m *measured) addsLine() string {
	names := make([]string, 0, len(m.adds))
	for n := range m.adds {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if m.adds[names[i]] != m.adds[names[j]] {
			return m.adds[names[i]] > m.adds[names[j]]
		}
		return names[i] < names[j]
	})
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s %.0f", n, m.adds[n]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func (r *result) print(w io.Writer) error {
	fmt.Fprintf(w, "%d ConfigMaps on 3 bare members, each staged by one RolloutPolicy (member1, member2, rest; healthyFor %s)\n",
		r.o.configMaps, r.o.healthyFor)
	fmt.Fprintf(w, "set-up: every rollout complete %s after the first create\n", r.setUp.Round(time.Millisecond))
	for _, x := range []struct {
		name string
		m    *measured
	}{{"at rest", r.rest}, {"one rollout", r.active}} {
		fmt.Fprintf(w, "%s (%s):\n", x.name, x.m.wall.Round(time.Second))
		fmt.Fprintf(w, "  mco-controller-manager CPU: %.0f ms (%.1f ms/s)\n", x.m.cpuMs(controllerManager), x.m.cpuMs(controllerManager)/x.m.wall.Seconds())
		fmt.Fprintf(w, "  CPU in cores: %s\n", benchkit.CPULine(x.m.cpu))
		fmt.Fprintf(w, "  queue adds: %s\n", x.m.addsLine())
		fmt.Fprintf(w, "  writes to mco: %.0f (%s), events %.0f\n", x.m.writes.Total, benchkit.Largest(x.m.writes.ByKey, 6), x.m.writes.Events)
	}
	fmt.Fprintf(w, "the rollout of %s completed %s after its change\n", configMapName(0), r.rolledOut.Round(time.Millisecond))
	raw, err := json.Marshal(map[string]any{
		"configMaps":                r.o.configMaps,
		"setUpSeconds":              benchkit.Round(r.setUp.Seconds(), 1),
		"restControllerManagerMs":   benchkit.Round(r.rest.cpuMs(controllerManager), 0),
		"restRolloutAdds":           r.rest.adds["rollout"],
		"restWrites":                r.rest.writes.Total,
		"activeControllerManagerMs": benchkit.Round(r.active.cpuMs(controllerManager), 0),
		"activeRolloutAdds":         r.active.adds["rollout"],
		"activeWrites":              r.active.writes.Total,
		"activeWindowSeconds":       benchkit.Round(r.active.wall.Seconds(), 1),
		"rolledOutSeconds":          benchkit.Round(r.rolledOut.Seconds(), 1),
	})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(raw))
	return err
}
