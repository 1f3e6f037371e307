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
// the API; so is a Work, which carries a propagated Secret to a member.
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

	s.MustKubectl(t, `apiVersion: v1
kind: Namespace
metadata: {name: karmada-es-member1}
---
apiVersion: work.karmada.io/v1alpha1
kind: Work
metadata: {name: token, namespace: karmada-es-member1}
spec:
  workload:
    manifests:
    - {apiVersion: v1, kind: Secret, metadata: {name: token, namespace: default}, stringData: {token: very-secret-token-value}}
`, "apply", "-f", "-")
	works, err := cli.Get(ctx, "/registry/", clientv3.WithPrefix(), clientv3.WithKeysOnly())
	if err != nil {
		t.Fatal(err)
	}
	key := ""
	for _, kv := range works.Kvs {
		if strings.HasSuffix(string(kv.Key), "/works/karmada-es-member1/token") {
			key = string(kv.Key)
		}
	}
	if resp, err = cli.Get(ctx, key); err != nil || len(resp.Kvs) != 1 {
		t.Fatalf("etcd %q: %v", key, err)
	}
	if value := string(resp.Kvs[0].Value); !strings.HasPrefix(value, "k8s:enc:aescbc:v1:key1:") || strings.Contains(value, "very-secret-token-value") {
		t.Errorf("the Work is stored at %s as %q...", key, value[:min(len(value), 40)])
	}
}
