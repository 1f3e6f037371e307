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

// smapsMiB sums a process's resident pages and those of the mappings of
// a file whose path ends in file.
func smapsMiB(pid int, file string) (total, mapped float64, err error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/smaps", pid))
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	return parseSmaps(f, file)
}

// parseSmaps reads smaps' format: a header line per mapping (address
// range, permissions, offset, device, inode, path) followed by "Key: N kB"
// lines, among them Rss.
func parseSmaps(r io.Reader, file string) (total, mapped float64, err error) {
	s := bufio.NewScanner(r)
	var inFile bool
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) == 0 {
			continue
		}
		if !strings.HasSuffix(fields[0], ":") {
			inFile = len(fields) >= 6 && strings.HasSuffix(fields[5], file)
			continue
		}
		if fields[0] != "Rss:" || len(fields) < 2 {
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
