package main

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// clockTicks is USER_HZ, the unit of utime and stime in /proc/<pid>/stat;
// 100 on every Linux this runs on.
const clockTicks = 100

// cpuSample is the CPU time each process of the environment has used, by
// process name.
type cpuSample map[string]time.Duration

// sampleCPU reads utime+stime of every running process of env.
func sampleCPU(env *localcluster.Env) cpuSample {
	out := cpuSample{}
	for _, p := range env.Processes() {
		if p == nil || !p.Running() {
			continue
		}
		if d, err := processCPU(p.PID); err == nil {
			out[p.Name] += d
		}
	}
	return out
}

// processCPU is the user plus system CPU time of pid so far.
func processCPU(pid int) (time.Duration, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name may hold spaces; the fields start after its ")".
	s := string(raw)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	// utime and stime are fields 14 and 15 of stat, 12 and 13 here.
	if len(fields) < 13 {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	var ticks int64
	for _, f := range fields[11:13] {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
		}
		ticks += v
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}

// cpuShare is one process's CPU use over a phase.
type cpuShare struct {
	name    string
	cores   float64 // CPU seconds per wall second
	seconds float64 // CPU seconds in all
}

// cpuUse is each process's CPU use between two samples taken wall apart,
// largest first.
func cpuUse(before, after cpuSample, wall time.Duration) []cpuShare {
	var out []cpuShare
	for name, a := range after {
		if d := a - before[name]; d > 0 && wall > 0 {
			out = append(out, cpuShare{name: name, cores: d.Seconds() / wall.Seconds(), seconds: d.Seconds()})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].cores != out[j].cores {
			return out[i].cores > out[j].cores
		}
		return out[i].name < out[j].name
	})
	return out
}
