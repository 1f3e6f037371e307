package kubeconfig

import (
	"os"
	"path/filepath"
	"testing"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/mco-org/mco/pkg/apiserver/pki"
)

func TestWrite(t *testing.T) {
	files, _, err := pki.Ensure(filepath.Join(t.TempDir(), "pki"), nil, pki.SharedCA{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		path   func(dir string) string
		before string // content already at the path, if any
	}{
		{name: "missing directories are created", path: func(dir string) string { return filepath.Join(dir, "a", "b", "kubeconfig") }},
		{name: "an existing file is replaced", path: func(dir string) string { return filepath.Join(dir, "kubeconfig") }, before: "old"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := tt.path(dir)
			if tt.before != "" {
				if err := os.WriteFile(path, []byte(tt.before), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			err := Write(path,
				Context{Name: "one", Server: "https://127.0.0.1:1", Files: files},
				Context{Name: "two", Server: "https://127.0.0.1:2", Files: files})
			if err != nil {
				t.Fatalf("Write: %v", err)
			}
			cfg, err := clientcmd.LoadFromFile(path)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			if cfg.CurrentContext != "one" || len(cfg.Contexts) != 2 || cfg.Clusters["two"].Server != "https://127.0.0.1:2" {
				t.Errorf("got current %q, %d contexts, cluster two %+v", cfg.CurrentContext, len(cfg.Contexts), cfg.Clusters["two"])
			}
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if mode := info.Mode().Perm(); mode != 0o600 {
				t.Errorf("mode %o, want 600", mode)
			}
			left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.tmp"))
			if len(left) != 0 {
				t.Errorf("temporary files left behind: %v", left)
			}
		})
	}
}
