package e2e

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/join"
	"github.com/mco-org/mco/test/e2e/framework"
)

// embeddedEtcdURL is the client URL mco-apiserver logs for its etcd.
var embeddedEtcdURL = regexp.MustCompile(`"Embedded etcd is serving" url="(http://127\.0\.0\.1:\d+)"`)

// TestMemberCredentialsEncryptedAtRest: the token join stored for member1,
// read straight from mco's etcd, is encrypted, not plain text.
func TestMemberCredentialsEncryptedAtRest(t *testing.T) {
	framework.Parallel(t)
	log, err := os.ReadFile(framework.Env.MCO.APIServer.Log)
	if err != nil {
		t.Fatal(err)
	}
	// The log holds every start of mco-apiserver (a serial test restarts
	// it), and each start serves etcd on a port of its own: the last is
	// the one serving.
	all := embeddedEtcdURL.FindAllSubmatch(log, -1)
	if len(all) == 0 {
		t.Fatalf("no embedded etcd URL in %s", framework.Env.MCO.APIServer.Log)
	}
	kube, _ := mcoClients(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	secret, err := kube.CoreV1().Secrets(join.Namespace).Get(ctx, "member1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	token := secret.Data[clusterv1alpha1.SecretTokenKey]
	if len(token) < 16 {
		t.Fatalf("member1's credentials hold no token")
	}
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{string(all[len(all)-1][1])}, DialTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	resp, err := cli.Get(ctx, "/registry/secrets/"+join.Namespace+"/member1")
	if err != nil || len(resp.Kvs) != 1 {
		t.Fatalf("etcd: %v", err)
	}
	value := resp.Kvs[0].Value
	if !bytes.HasPrefix(value, []byte("k8s:enc:aescbc:v1:key1:")) || bytes.Contains(value, token) {
		t.Errorf("member1's credentials are stored as %q...", value[:min(len(value), 40)])
	}
}
