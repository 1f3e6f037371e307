package clients

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const twoContexts = `apiVersion: v1
kind: Config
clusters:
- name: a
  cluster: {server: "https://10.0.0.1:6443", certificate-authority: ca.crt}
- name: b
  cluster: {server: "https://10.0.0.2:6443", insecure-skip-tls-verify: true}
users:
- name: admin
  user: {token: secret}
contexts:
- name: alpha
  context: {cluster: a, user: admin}
- name: beta
  context: {cluster: b, user: admin}
current-context: alpha
`

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestMemberConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := writeFile(t, dir, "good", twoContexts)
	writeFile(t, dir, "ca.crt", "not checked here")
	noCurrent := writeFile(t, dir, "no-current", strings.Replace(twoContexts, "current-context: alpha\n", "", 1))
	garbage := writeFile(t, dir, "garbage", "{{{ not yaml")
	empty := writeFile(t, dir, "empty", "")
	missing := filepath.Join(dir, "missing")

	cases := []struct {
		name, path, context string
		wantHost, wantErr   string
		wantCAFile          string
		wantInsecure        bool
	}{{
		name: "The current context is used when none is named", path: good,
		wantHost: "https://10.0.0.1:6443", wantCAFile: filepath.Join(dir, "ca.crt"),
	}, {
		name: "A named context is used, with its TLS settings", path: good, context: "beta",
		wantHost: "https://10.0.0.2:6443", wantInsecure: true,
	}, {
		name: "A missing file says so", path: missing,
		wantErr: "member kubeconfig " + missing + " does not exist",
	}, {
		name: "An unparseable file says it cannot be read", path: garbage,
		wantErr: "member kubeconfig " + garbage + " cannot be read: ",
	}, {
		name: "A context that is not in the file lists those that are", path: good, context: "gamma",
		wantErr: `context "gamma" not found in member kubeconfig ` + good + " (it has contexts alpha, beta)",
	}, {
		name: "A file without current-context asks for --cluster-context", path: noCurrent,
		wantErr: "member kubeconfig " + noCurrent + " has no current-context: choose one with --cluster-context (it has contexts alpha, beta)",
	}, {
		name: "An empty file has no contexts", path: empty,
		wantErr: "member kubeconfig " + empty + " has no current-context: choose one with --cluster-context (it has no contexts)",
	}, {
		name: "No file at all asks for the flag", path: "",
		wantErr: "no member kubeconfig given: use --cluster-kubeconfig FILE",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := MemberConfig(tc.path, tc.context)
			if tc.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one starting with %q", err, tc.wantErr)
				}
				if strings.Contains(err.Error(), "\n") {
					t.Errorf("error spans lines: %q", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Host != tc.wantHost || cfg.CAFile != tc.wantCAFile || cfg.Insecure != tc.wantInsecure {
				t.Errorf("got host %q, CA file %q, insecure %v; want %q, %q, %v",
					cfg.Host, cfg.CAFile, cfg.Insecure, tc.wantHost, tc.wantCAFile, tc.wantInsecure)
			}
		})
	}
}

func TestProxyURL(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, host, want string }{
		{"A host gets the proxy path of the cluster", "https://mco:6443", "https://mco:6443/apis/cluster.karmada.io/v1alpha1/clusters/m1/proxy"},
		{"A trailing slash is not doubled", "https://mco:6443/", "https://mco:6443/apis/cluster.karmada.io/v1alpha1/clusters/m1/proxy"},
		{"A path prefix is kept", "https://lb/mco", "https://lb/mco/apis/cluster.karmada.io/v1alpha1/clusters/m1/proxy"},
	}
	for _, tc := range cases {
		if got := ProxyURL(tc.host, "m1"); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
