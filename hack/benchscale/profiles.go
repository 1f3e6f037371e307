package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mco-org/mco/hack/internal/benchkit"
)

// saveHeapProfiles writes a heap profile of each of mco's processes into
// dir (go tool pprof reads them): mco-apiserver's through its API, the
// others' from their health and metrics port.
func (s *scale) saveHeapProfiles(ctx context.Context, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	api, err := s.kube.CoreV1().RESTClient().Get().AbsPath("/debug/pprof/heap").DoRaw(ctx)
	if err != nil {
		return fmt.Errorf("heap profile of mco-apiserver: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mco-apiserver.heap"), api, 0o644); err != nil {
		return err
	}
	for name, base := range map[string]string{
		"mco-controller-manager": s.env.MCO.ControllerManagerURL(),
		"mco-scheduler":          s.env.MCO.SchedulerURL(),
	} {
		raw, err := benchkit.HTTPGet(ctx, base+"/debug/pprof/heap")
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
