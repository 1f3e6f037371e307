package clusterproxy

import (
	"context"
	"encoding/pem"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/authentication/user"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

type clusterGetter map[string]*clusterv1alpha1.Cluster

func (g clusterGetter) Get(_ context.Context, name string, _ *metav1.GetOptions) (runtime.Object, error) {
	if c, ok := g[name]; ok {
		return c, nil
	}
	return nil, apierrors.NewNotFound(clusterv1alpha1.Resource("clusters"), name)
}

// responder records what the proxy answered with instead of forwarding.
type responder struct{ err error }

func (r *responder) Object(int, runtime.Object) {}
func (r *responder) Error(err error)            { r.err = err }

// fakeMember is a TLS server standing for a member's kube-apiserver; it
// records the last request's headers and path.
type fakeMember struct {
	srv    *httptest.Server
	header http.Header
	url    string
	// silent: answer nothing until the proxy gives up on the request.
	silent bool
}

func newMember(t *testing.T) *fakeMember {
	m := &fakeMember{}
	m.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.header, m.url = r.Header.Clone(), r.URL.String()
		if m.silent {
			<-r.Context().Done()
			return
		}
		_, _ = w.Write([]byte(`{"kind":"NodeList"}`))
	}))
	t.Cleanup(m.srv.Close)
	return m
}

func (m *fakeMember) fixtures(ready metav1.ConditionStatus) (clusterGetter, SecretGetter) {
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: m.srv.Certificate().Raw})
	cluster := &clusterv1alpha1.Cluster{
		ObjectMeta: metav1.ObjectMeta{Name: "member1"},
		Spec: clusterv1alpha1.ClusterSpec{SyncMode: clusterv1alpha1.Push, APIEndpoint: m.srv.URL,
			SecretRef:             &clusterv1alpha1.LocalSecretReference{Namespace: "karmada-cluster", Name: "member1"},
			ImpersonatorSecretRef: &clusterv1alpha1.LocalSecretReference{Namespace: "karmada-cluster", Name: "member1-impersonator"}},
		Status: clusterv1alpha1.ClusterStatus{Conditions: []metav1.Condition{{Type: "Ready", Status: ready, Reason: "ClusterNotReachable", Message: "timed out"}}},
	}
	secrets := map[string]*corev1.Secret{
		"member1":              {Data: map[string][]byte{"token": []byte("controller-token"), "caBundle": ca}},
		"member1-impersonator": {Data: map[string][]byte{"token": []byte("impersonator-token")}},
	}
	get := func(_ context.Context, ns, name string) (*corev1.Secret, error) {
		if s, ok := secrets[name]; ok && ns == "karmada-cluster" {
			return s, nil
		}
		return nil, apierrors.NewNotFound(corev1.Resource("secrets"), name)
	}
	return clusterGetter{"member1": cluster}, get
}

func callerCtx() context.Context {
	return genericapirequest.WithUser(context.Background(), &user.DefaultInfo{
		Name: "alice", UID: "u-1", Groups: []string{"team-a", user.AllAuthenticated},
		Extra: map[string][]string{"scopes": {"s1"}},
	})
}

func TestForwardImpersonatesTheCaller(t *testing.T) {
	m := newMember(t)
	clusters, secrets := m.fixtures(metav1.ConditionTrue)
	r := New(clusters, secrets, 5*time.Second)
	resp := &responder{}
	h, err := r.Connect(callerCtx(), "member1", &clusterv1alpha1.ClusterProxyOptions{Path: "/api/v1/nodes"}, resp)
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("GET", "/apis/cluster.karmada.io/v1alpha1/clusters/member1/proxy/api/v1/nodes?limit=5", nil)
	req.Header.Set("Authorization", "Bearer caller-token-for-mco")
	req.Header.Add("Impersonate-Group", "system:masters")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if resp.err != nil || w.Code != http.StatusOK {
		t.Fatalf("code %d, error %v, body %s", w.Code, resp.err, w.Body)
	}
	if m.url != "/api/v1/nodes?limit=5" {
		t.Errorf("member got %q", m.url)
	}
	checks := map[string][]string{
		"Authorization":            {"Bearer impersonator-token"},
		"Impersonate-User":         {"alice"},
		"Impersonate-Uid":          {"u-1"},
		"Impersonate-Group":        {"team-a", user.AllAuthenticated},
		"Impersonate-Extra-Scopes": {"s1"},
	}
	for k, want := range checks {
		if got := m.header.Values(k); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("member got %s %v, want %v", k, got, want)
		}
	}
}

func TestRefusals(t *testing.T) {
	m := newMember(t)
	ready, secrets := m.fixtures(metav1.ConditionTrue)
	notReady, _ := m.fixtures(metav1.ConditionFalse)
	for _, tc := range []struct {
		name     string
		ctx      context.Context
		clusters clusterGetter
		cluster  string
		want     func(error) bool
		contains string
	}{
		{"no caller", context.Background(), ready, "member1", apierrors.IsUnauthorized, "authenticated"},
		{"unknown cluster", callerCtx(), ready, "nope", apierrors.IsNotFound, "nope"},
		{"not ready", callerCtx(), notReady, "member1", apierrors.IsServiceUnavailable, "ClusterNotReachable: timed out"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.clusters, secrets, time.Second).Connect(tc.ctx, tc.cluster, &clusterv1alpha1.ClusterProxyOptions{}, &responder{})
			if !tc.want(err) || !strings.Contains(err.Error(), tc.contains) {
				t.Fatalf("got %v", err)
			}
		})
	}
}

func TestSilentMemberGets503(t *testing.T) {
	m := newMember(t)
	m.silent = true
	clusters, secrets := m.fixtures(metav1.ConditionTrue)
	resp := &responder{}
	h, err := New(clusters, secrets, 100*time.Millisecond).Connect(callerCtx(), "member1", &clusterv1alpha1.ClusterProxyOptions{Path: "/version"}, resp)
	if err != nil {
		t.Fatal(err)
	}
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/version", nil))
	var status apierrors.APIStatus
	if !errors.As(resp.err, &status) || status.Status().Code != http.StatusServiceUnavailable {
		t.Fatalf("got %v, want 503", resp.err)
	}
	if strings.Contains(resp.err.Error(), "token") {
		t.Errorf("error mentions a token: %v", resp.err)
	}
}
