package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
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
		if err := fetchTo(ctx, base+"/debug/pprof/heap", filepath.Join(dir, name+".heap")); err != nil {
			return fmt.Errorf("heap profile of %s: %w", name, err)
		}
	}
	s.logf("heap profiles in %s", dir)
	return nil
}

func fetchTo(ctx context.Context, url, path string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}
