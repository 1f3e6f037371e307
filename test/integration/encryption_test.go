package integration

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/mco-org/mco/pkg/apiserver/encryption"
	"github.com/mco-org/mco/test/integration/framework"
)

// TestSecretsEncryptedAtRest: with --encryption-provider-config, a Secret
// is stored in etcd encrypted (AES-CBC), and read back in clear through
// the API.
func TestSecretsEncryptedAtRest(t *testing.T) {
	t.Parallel()
	etcdURL := startEtcd(t)
	dir := t.TempDir()
	config := filepath.Join(dir, "encryption.yaml")
	if err := encryption.EnsureConfig(config); err != nil {
		t.Fatal(err)
	}
	s := framework.StartAPIServer(t, dir, "--etcd-servers", etcdURL, "--encryption-provider-config", config)
	s.MustKubectl(t, "", "create", "secret", "generic", "member-token", "--from-literal=token=very-secret-token-value")
	if out := s.MustKubectl(t, "", "get", "secret", "member-token", "-o", "jsonpath={.data.token}"); out != "dmVyeS1zZWNyZXQtdG9rZW4tdmFsdWU=" {
		t.Errorf("the Secret reads back as %q", out)
	}

	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{etcdURL}, DialTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := cli.Get(ctx, "/registry/secrets/default/member-token")
	if err != nil || len(resp.Kvs) != 1 {
		t.Fatalf("etcd: %v (%d values)", err, len(resp.Kvs))
	}
	value := string(resp.Kvs[0].Value)
	if !strings.HasPrefix(value, "k8s:enc:aescbc:v1:key1:") || strings.Contains(value, "very-secret-token-value") {
		t.Errorf("the Secret is stored as %q...", value[:min(len(value), 40)])
	}
}
