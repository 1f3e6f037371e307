package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mco-org/mco/hack/internal/benchkit"
)

// saveHeapProfiles writes a heap profile of each of mco's processes into
// dir (go tool pprof reads them).
func (s *scale) saveHeapProfiles(ctx context.Context, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, get := range benchkit.MCOProfiles(s.kube, s.env.MCO) {
		raw, err := get(ctx, "heap", 0)
		if err != nil {
			return fmt.Errorf("heap profile of %s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".heap"), raw, 0o644); err != nil {
			return err
		}
	}
	s.logf("heap profiles in %s", dir)
	return nil
}

// profileEvery saves heap profiles every interval until ctx ends, each
// set into dir/<seconds since start>s: the peak of a process's memory
// need not come when the one-off profiles are taken.
func (s *scale) profileEvery(ctx context.Context, dir string, interval time.Duration) {
	start := time.Now()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		at := filepath.Join(dir, fmt.Sprintf("%ds", int(time.Since(start).Seconds())))
		if err := s.saveHeapProfiles(ctx, at); err != nil && ctx.Err() == nil {
			s.logf("periodic heap profiles: %v", err)
		}
	}
}
