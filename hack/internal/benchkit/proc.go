package benchkit

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// CPUShare is one process's CPU use over a phase.
type CPUShare struct {
	Name    string
	Cores   float64 // CPU seconds per wall second
	Seconds float64 // CPU seconds in all
}

// CPUUse is each process's CPU use between two samples of
// localcluster.Env.CPU taken wall apart, largest first.
func CPUUse(before, after map[string]time.Duration, wall time.Duration) []CPUShare {
	var out []CPUShare
	for name, a := range after {
		if d := a - before[name]; d > 0 && wall > 0 {
			out = append(out, CPUShare{Name: name, Cores: d.Seconds() / wall.Seconds(), Seconds: d.Seconds()})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Cores != out[j].Cores {
			return out[i].Cores > out[j].Cores
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// MsPer is a process's CPU in milliseconds per unit of work (0 when it
// is not among the shares).
func MsPer(shares []CPUShare, process string, units int) float64 {
	for _, s := range shares {
		if s.Name == process && units > 0 {
			return s.Seconds * 1000 / float64(units)
		}
	}
	return 0
}

// CPULine renders the shares in cores.
func CPULine(shares []CPUShare) string {
	var parts []string
	var total float64
	for _, s := range shares {
		total += s.Cores
		if s.Cores >= 0.01 {
			parts = append(parts, fmt.Sprintf("%s %.2f", s.Name, s.Cores))
		}
	}
	return fmt.Sprintf("total %.2f: %s", total, strings.Join(parts, ", "))
}

// CPUPerUnit spreads each process's CPU over a phase across the n units
// of work of the phase, in CPU milliseconds: a figure that depends less on
// how busy the machine's neighbours are than throughput does.
func CPUPerUnit(shares []CPUShare, n int) string {
	if n == 0 {
		return ""
	}
	var parts []string
	var total float64
	for _, s := range shares {
		v := s.Seconds * 1000 / float64(n)
		total += v
		if v >= 0.5 {
			parts = append(parts, fmt.Sprintf("%s %.1f", s.Name, v))
		}
	}
	return fmt.Sprintf("total %.1f: %s", total, strings.Join(parts, ", "))
}

// RSSMiB is a running process's resident set size now (VmRSS).
func RSSMiB(p *localcluster.Process) (float64, error) { return statusMiB(p, "VmRSS:") }

// PeakRSSMiB is the largest resident set size a running process has had
// (VmHWM).
func PeakRSSMiB(p *localcluster.Process) (float64, error) { return statusMiB(p, "VmHWM:") }

// statusMiB reads one kB field of a process's /proc status in MiB.
func statusMiB(p *localcluster.Process, field string) (float64, error) {
	if !p.Running() {
		return 0, fmt.Errorf("%s (pid %d) is not running; see %s", p.Name, p.PID, p.Log)
	}
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", p.PID))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) == 3 && fields[0] == field && fields[2] == "kB" {
			kb, err := strconv.ParseFloat(fields[1], 64)
			if err != nil {
				return 0, fmt.Errorf("%s of %s: %w", field, p.Name, err)
			}
			return kb / 1024, nil
		}
	}
	return 0, fmt.Errorf("no %s for %s (pid %d)", field, p.Name, p.PID)
}
