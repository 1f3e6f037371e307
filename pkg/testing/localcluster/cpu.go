package localcluster

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTicks is USER_HZ, the unit of utime and stime in /proc/<pid>/stat;
// 100 on every Linux this runs on.
const clockTicks = 100

// CPU is the user plus system CPU time the process has used so far.
func (p *Process) CPU() (time.Duration, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.PID))
	if err != nil {
		return 0, err
	}
	// The command name may hold spaces; the fields start after its ")".
	s := string(raw)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	// utime and stime are fields 14 and 15 of stat, 12 and 13 here.
	if len(fields) < 13 {
		return 0, fmt.Errorf("short /proc/%d/stat", p.PID)
	}
	var ticks int64
	for _, f := range fields[11:13] {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/stat: %w", p.PID, err)
		}
		ticks += v
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}

// CPU is the CPU time each running process of the environment has used
// so far, by process name.
func (e *Env) CPU() map[string]time.Duration {
	out := map[string]time.Duration{}
	for _, p := range e.Processes() {
		if p == nil || !p.Running() {
			continue
		}
		if d, err := p.CPU(); err == nil {
			out[p.Name] += d
		}
	}
	return out
}
