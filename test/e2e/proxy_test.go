package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/mco-org/mco/pkg/testing/localcluster"
	"github.com/mco-org/mco/test/e2e/framework"
)

// proxyPath is the cluster proxy of a member on mco.
func proxyPath(cluster string) string {
	return "/apis/cluster.karmada.io/v1alpha1/clusters/" + cluster + "/proxy"
}

// proxyConfig is mco's admin configuration aimed at a member's proxy.
func proxyConfig(t *testing.T, cluster string) *rest.Config {
	t.Helper()
	cfg, err := localcluster.RESTConfig(framework.Env.MCO.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Host = strings.TrimSuffix(cfg.Host, "/") + proxyPath(cluster)
	return cfg
}

// TestClusterProxy: through mco, a caller lists and watches a member's
// objects with its own identity: kubectl with a proxy server URL works,
// a user the member does not authorise gets the member's 403, and a
// caller without credentials gets 401.
func TestClusterProxy(t *testing.T) {
	framework.Parallel(t)
	ctx := context.Background()
	client := kubernetes.NewForConfigOrDie(proxyConfig(t, "member1"))
	nodes, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("list member1's nodes through mco: %v", err)
	}
	if len(nodes.Items) == 0 || !strings.HasPrefix(nodes.Items[0].Name, "member1-") {
		t.Fatalf("nodes through member1's proxy: %v", nodes.Items)
	}

	server := proxyConfig(t, "member2").Host
	if out := kubectl(t, "", "--server", server, "get", "nodes", "-o", "name"); !strings.Contains(out, "node/member2-node-1") {
		t.Errorf("kubectl --server %s get nodes: %s", server, out)
	}

	// A watch through the proxy sees what happens in the member.
	ns := fmt.Sprintf("e2e-proxy-%d", time.Now().UnixNano()%100000)
	member := memberClient(t, "member1")
	if _, err := member.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = member.CoreV1().Namespaces().Delete(ctx, ns, metav1.DeleteOptions{}) }()
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	w, err := client.CoreV1().ConfigMaps(ns).Watch(wctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("watch through the proxy: %v", err)
	}
	defer w.Stop()
	if _, err := member.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "seen"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	seen := false
	for ev := range w.ResultChan() {
		if cm, ok := ev.Object.(*corev1.ConfigMap); ok && ev.Type == watch.Added && cm.Name == "seen" {
			seen = true
			break
		}
	}
	if !seen {
		t.Fatal("the watch through the proxy did not see the ConfigMap created in member1")
	}

	// The member decides with the caller's identity.
	out, err := kubectlErr("", "--as", "alice", "get", "--raw", proxyPath("member1")+"/api/v1/nodes")
	if err == nil || !strings.Contains(out, "Forbidden") || !strings.Contains(out, `User "alice"`) {
		t.Errorf("alice through the proxy: err %v, output %s", err, out)
	}

	// No credentials: refused by mco.
	anon := proxyConfig(t, "member1")
	anon.TLSClientConfig = rest.TLSClientConfig{CAData: anon.CAData, CAFile: anon.CAFile}
	transport, err := rest.TransportFor(anon)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := (&http.Client{Transport: transport, Timeout: 10 * time.Second}).Get(anon.Host + "/api/v1/nodes")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("unauthenticated proxy call: %d, want 401", resp.StatusCode)
	}
}

// TestClusterProxyPausedMember: a member that does not answer gives 503
// within mco's proxy timeout instead of hanging the caller.
func TestClusterProxyPausedMember(t *testing.T) {
	framework.Serial(t, "pauses member2")
	m := framework.Env.Member("member2")
	if err := m.APIServer.Pause(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := m.APIServer.Resume(); err != nil {
			t.Error(err)
		}
	}()
	cfg := proxyConfig(t, "member2")
	cfg.Timeout = 20 * time.Second
	start := time.Now()
	_, err := kubernetes.NewForConfigOrDie(cfg).CoreV1().Nodes().List(context.Background(), metav1.ListOptions{})
	if !apierrors.IsServiceUnavailable(err) {
		t.Fatalf("list through a paused member's proxy: %v, want 503", err)
	}
	t.Logf("503 after %s: %v", time.Since(start).Round(time.Millisecond), err)
}
