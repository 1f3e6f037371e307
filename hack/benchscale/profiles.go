package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

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
