package main

import (
	"sort"
	"time"

	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// cpuSample is the CPU time each process of the environment has used, by
// process name.
type cpuSample map[string]time.Duration

// sampleCPU reads utime+stime of every running process of env.
func sampleCPU(env *localcluster.Env) cpuSample { return env.CPU() }

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
