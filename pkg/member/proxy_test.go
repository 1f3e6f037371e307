package member

import (
	"context"
	"encoding/pem"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

// connectProxy tunnels CONNECT requests and records their headers.
type connectProxy struct {
	mu      sync.Mutex
	headers []http.Header
}

func (p *connectProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodConnect {
		http.Error(w, "CONNECT only", http.StatusMethodNotAllowed)
		return
	}
	p.mu.Lock()
	p.headers = append(p.headers, r.Header.Clone())
	p.mu.Unlock()
	upstream, err := net.Dial("tcp", r.Host)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		upstream.Close()
		return
	}
	_, _ = conn.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n"))
	go func() { _, _ = io.Copy(upstream, conn); upstream.Close() }()
	go func() { _, _ = io.Copy(conn, upstream); conn.Close() }()
}

// TestProxyHeaders: a member reached through spec.proxyURL sends
// spec.proxyHeader with the proxy's CONNECT (several values of a key
// comma-separated), as Karmada does; a change of headers makes another
// client.
func TestProxyHeaders(t *testing.T) {
	target := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"major":"1","minor":"37","gitVersion":"v1.37.2"}`))
	}))
	defer target.Close()
	proxy := &connectProxy{}
	proxyServer := httptest.NewServer(proxy)
	defer proxyServer.Close()

	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: target.Certificate().Raw})
	c := &clusterv1alpha1.Cluster{ObjectMeta: metav1.ObjectMeta{Name: "edge"}, Spec: clusterv1alpha1.ClusterSpec{
		APIEndpoint: target.URL, ProxyURL: proxyServer.URL,
		ProxyHeader: map[string]string{"x-tenant": "blue", "Proxy-Authorization": "Basic dXNlcjpwYXNz", "X-Route": "a, b"},
	}}
	secret := &corev1.Secret{Data: map[string][]byte{clusterv1alpha1.SecretTokenKey: []byte("t"), clusterv1alpha1.SecretCADataKey: ca}}
	cfg, err := restConfig(c, secret, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Discovery().RESTClient().Get().AbsPath("/version").DoRaw(context.Background()); err != nil {
		t.Fatalf("through the proxy: %v", err)
	}
	proxy.mu.Lock()
	defer proxy.mu.Unlock()
	if len(proxy.headers) == 0 {
		t.Fatal("the proxy saw no CONNECT")
	}
	h := proxy.headers[0]
	if h.Get("X-Tenant") != "blue" || h.Get("Proxy-Authorization") != "Basic dXNlcjpwYXNz" || len(h.Values("X-Route")) != 2 || h.Values("X-Route")[1] != "b" {
		t.Errorf("CONNECT headers: %v", h)
	}

	before := fingerprint(c, secret)
	c.Spec.ProxyHeader["x-tenant"] = "green"
	if fingerprint(c, secret) == before {
		t.Errorf("changed proxy headers keep the client's fingerprint: the old client would be kept")
	}
}
