package integration

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/mco-org/mco/test/integration/framework"
)

// TestExternalEtcdAndTwoReplicas runs two mco-apiservers against one
// external etcd (--etcd-servers) and one PKI: what one writes, the other
// serves, and either accepts the other's client certificates.
func TestExternalEtcdAndTwoReplicas(t *testing.T) {
	t.Parallel()
	etcdURL := startEtcd(t)
	a := framework.StartAPIServer(t, "", "--etcd-servers", etcdURL)
	// The second replica trusts a's CA and serves a's certificate, as
	// replicas behind one address do; it issues its own client
	// certificates from the shared CA.
	pki := filepath.Join(a.DataDir, "pki")
	b := framework.StartAPIServer(t, "", "--etcd-servers", etcdURL,
		"--client-ca-file", filepath.Join(pki, "ca.crt"), "--client-ca-key-file", filepath.Join(pki, "ca.key"),
		"--tls-cert-file", filepath.Join(pki, "apiserver.crt"), "--tls-private-key-file", filepath.Join(pki, "apiserver.key"))
	a.MustKubectl(t, testdata(t, "propagationpolicy.yaml"), "apply", "-f", "-")
	out := b.MustKubectl(t, "", "get", "pp", "-o", "name")
	if !strings.Contains(out, "nginx-propagation") {
		t.Errorf("replica b does not serve what a wrote: %q", out)
	}
	// a's admin kubeconfig against b, and b's against a.
	for _, c := range []struct {
		name       string
		kubeconfig string
		server     *framework.APIServer
	}{{"a's kubeconfig on b", a.Kubeconfig, b}, {"b's kubeconfig on a", b.Kubeconfig, a}} {
		out, errOut, err := c.server.Kubectl(t, "", "--kubeconfig", c.kubeconfig, "auth", "whoami", "-o", "jsonpath={.status.userInfo.username}")
		if err != nil || out != "mco-admin" {
			t.Errorf("%s: whoami %q, %v (%s)", c.name, out, err, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(a.DataDir, "etcd")); err == nil {
		t.Errorf("an embedded etcd was started although --etcd-servers was given")
	}
	// Over gRPC, Works stay in the watch cache (reading each before its
	// write would cost more CPU than the cache costs memory).
	if metrics := cachedResources(t, a); !strings.Contains(metrics, `group="work.karmada.io",resource="works"`) {
		t.Errorf("on an external etcd, no watch cache of Works:\n%s", metrics)
	}

	// Built-in kinds are stored as protobuf, mco's kinds as JSON.
	a.MustKubectl(t, testdata(t, "deployment.yaml"), "apply", "-f", "-")
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{etcdURL}, DialTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for key, prefix := range map[string]string{
		"/registry/deployments/default/nginx":                                       "k8s\x00",
		"/registry/policy.karmada.io/propagationpolicies/default/nginx-propagation": "k8s\x00",
	} {
		resp, err := cli.Get(ctx, key)
		if err != nil || len(resp.Kvs) != 1 {
			t.Errorf("etcd key %s: %v (%d values)", key, err, len(resp.Kvs))
			continue
		}
		if v := string(resp.Kvs[0].Value); !strings.HasPrefix(v, prefix) {
			t.Errorf("etcd value of %s starts with %q, want %q", key, v[:min(len(v), 8)], prefix)
		}
	}
}

// startEtcd runs the etcd binary built by hack/build-member-binaries.sh.
func startEtcd(t *testing.T) string {
	t.Helper()
	ports := make([]int, 2)
	for i := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ports[i] = l.Addr().(*net.TCPAddr).Port
		l.Close()
	}
	client := fmt.Sprintf("http://127.0.0.1:%d", ports[0])
	peer := fmt.Sprintf("http://127.0.0.1:%d", ports[1])
	dir := t.TempDir()
	cmd := exec.Command(framework.Binary(t, "etcd"), "--name=e", "--data-dir="+filepath.Join(dir, "data"),
		"--listen-client-urls="+client, "--advertise-client-urls="+client,
		"--listen-peer-urls="+peer, "--initial-advertise-peer-urls="+peer, "--initial-cluster=e="+peer,
		"--log-level=warn")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	var dialErr error
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", ports[0]))
		if dialErr = err; err != nil {
			return false, nil
		}
		conn.Close()
		return true, nil
	})
	if err != nil {
		t.Fatalf("etcd did not start: %v (%v)", dialErr, err)
	}
	return client
}
