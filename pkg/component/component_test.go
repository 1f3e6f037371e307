package component

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRESTConfig(t *testing.T) {
	t.Parallel()
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kubeconfig, []byte(`apiVersion: v1
kind: Config
clusters: [{name: mco, cluster: {server: "https://127.0.0.1:6443"}}]
users: [{name: mco, user: {token: t}}]
contexts: [{name: mco, context: {cluster: mco, user: mco}}]
current-context: mco
`), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name          string
		compression   bool
		wantDisabled  bool
		wantQPS       float32
		wantBurst     int
		wantUserAgent string
	}{
		{name: "compression off by default", wantDisabled: true, wantQPS: 40, wantBurst: 60, wantUserAgent: "mco-test"},
		{name: "compression asked for", compression: true, wantDisabled: false, wantQPS: 40, wantBurst: 60, wantUserAgent: "mco-test"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			o := ClientOptions{Kubeconfig: kubeconfig, QPS: 40, Burst: 60, Compression: c.compression}
			cfg, err := o.RESTConfig("mco-test")
			if err != nil {
				t.Fatal(err)
			}
			if cfg.DisableCompression != c.wantDisabled || cfg.QPS != c.wantQPS || cfg.Burst != c.wantBurst || cfg.UserAgent != c.wantUserAgent {
				t.Errorf("got DisableCompression %t, QPS %v, burst %d, user agent %q", cfg.DisableCompression, cfg.QPS, cfg.Burst, cfg.UserAgent)
			}
		})
	}
}
