package benchkit

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// EtcdDatabase ends the path of an etcd member's bbolt database, which
// etcd maps into memory: embedded in mco-apiserver, its pages count in
// mco-apiserver's resident set although they are the database's file.
const EtcdDatabase = "/member/snap/db"

// MemoryPeak is what a MemorySampler saw of one process, in MiB.
type MemoryPeak struct {
	Name string
	// Anonymous is the largest resident set seen less the pages of the
	// mapped file; Mapped the largest resident part of that file.
	Anonymous, Mapped float64
}

// MemorySampler reads processes' resident sets at an interval from
// /proc/PID/smaps, the pages of one mapped file told apart, and keeps
// their peaks. Sampling misses what lasts shorter than the interval, and
// the kernel's own peak (VmHWM) misses what a Go process hands back with
// madvise: neither alone is the whole peak, so reports print both.
type MemorySampler struct {
	mu    sync.Mutex
	peaks []MemoryPeak
}

// SampleMemory starts sampling procs every interval until ctx ends; file
// is the suffix of the mapped file's path.
func SampleMemory(ctx context.Context, procs []*localcluster.Process, file string, interval time.Duration) *MemorySampler {
	s := &MemorySampler{peaks: make([]MemoryPeak, len(procs))}
	for i, p := range procs {
		s.peaks[i].Name = p.Name
	}
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			for i, p := range procs {
				if total, mapped, err := smapsMiB(p.PID, file); err == nil {
					s.record(i, total-mapped, mapped)
				}
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return s
}

func (s *MemorySampler) record(i int, anonymous, mapped float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := &s.peaks[i]
	p.Anonymous = max(p.Anonymous, anonymous)
	p.Mapped = max(p.Mapped, mapped)
}

// Peaks returns the peaks seen so far, in the order of the processes.
func (s *MemorySampler) Peaks() []MemoryPeak {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]MemoryPeak(nil), s.peaks...)
}

// smapsMiB returns a process's resident pages and those of the mappings
// of a file whose path ends in file. The total comes from
// /proc/PID/smaps_rollup, which the kernel sums in one pass: smaps is
// read in chunks while a busy Go process maps and unmaps memory, and a
// mapping may then appear twice (a 10,000-Deployment run summed to twice
// the kernel's own peak). smaps, with repeated mappings skipped, gives the
// file's pages, and the total where there is no rollup.
func smapsMiB(pid int, file string) (total, mapped float64, err error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/smaps", pid))
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	total, mapped, err = parseSmaps(f, file)
	if err != nil {
		return 0, 0, err
	}
	if r, err := os.Open(fmt.Sprintf("/proc/%d/smaps_rollup", pid)); err == nil {
		defer r.Close()
		if rolled, _, err := parseSmaps(r, file); err == nil && rolled > 0 {
			total = rolled
		}
	}
	return total, min(mapped, total), nil
}

// parseSmaps reads smaps' format: a header line per mapping (address
// range, permissions, offset, device, inode, path) followed by "Key: N kB"
// lines, among them Rss. A mapping listed twice counts once.
func parseSmaps(r io.Reader, file string) (total, mapped float64, err error) {
	s := bufio.NewScanner(r)
	var inFile, repeated bool
	seen := map[string]bool{}
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) == 0 {
			continue
		}
		if !strings.HasSuffix(fields[0], ":") {
			inFile = len(fields) >= 6 && strings.HasSuffix(fields[5], file)
			repeated = seen[fields[0]] // the same address range again
			seen[fields[0]] = true
			continue
		}
		if fields[0] != "Rss:" || len(fields) < 2 || repeated {
			continue
		}
		kb, err := strconv.ParseFloat(fields[1], 64)
		if err != nil {
			return 0, 0, fmt.Errorf("smaps Rss %q: %w", s.Text(), err)
		}
		total += kb / 1024
		if inFile {
			mapped += kb / 1024
		}
	}
	return total, mapped, s.Err()
}
