package apiserver

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"math/big"
	"net/http"
	"testing"
	"time"

	"k8s.io/apiserver/pkg/authentication/authenticator"
	x509request "k8s.io/apiserver/pkg/authentication/request/x509"
	"k8s.io/apiserver/pkg/authentication/user"
)

// testChain is a CA and a client certificate it signed.
type testChain struct {
	ca, client *x509.Certificate
	caPEMish   []byte // stands for the CA bundle's content
}

func newTestChain(t testing.TB, name string, notAfter time.Time) testChain {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test-ca"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: notAfter,
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	client, _ := x509.ParseCertificate(der)
	return testChain{ca: ca, client: client, caPEMish: caDER}
}

func requestWith(certs ...*x509.Certificate) *http.Request {
	req, _ := http.NewRequest(http.MethodGet, "https://127.0.0.1/api", nil)
	if len(certs) > 0 {
		req.TLS = &tls.ConnectionState{PeerCertificates: certs}
	}
	return req
}

// countingAuthenticator answers as the x509 authenticator would, counting
// its calls.
type countingAuthenticator struct {
	calls int
	err   error
}

func (a *countingAuthenticator) AuthenticateRequest(req *http.Request) (*authenticator.Response, bool, error) {
	a.calls++
	if req.TLS == nil || len(req.TLS.PeerCertificates) == 0 {
		return nil, false, nil
	}
	if a.err != nil {
		return nil, false, a.err
	}
	return &authenticator.Response{User: &user.DefaultInfo{Name: req.TLS.PeerCertificates[0].Subject.CommonName}}, true, nil
}

// TestCertCache: a chain is verified once and then answered from the
// cache, as the same user, until the TTL or the leaf's expiry; another CA
// bundle or another chain is verified afresh; failures and requests
// without certificates always go to the delegate.
func TestCertCache(t *testing.T) {
	now := time.Now()
	alice := newTestChain(t, "alice", now.Add(24*time.Hour))
	bob := newTestChain(t, "bob", now.Add(10*time.Second)) // expires before the TTL
	type step struct {
		req       *http.Request
		after     time.Duration // since the start
		caBundle  []byte
		err       error
		wantUser  string
		wantCalls int // the delegate's calls so far
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{name: "the same chain is verified once within the TTL", steps: []step{
			{req: requestWith(alice.client, alice.ca), caBundle: alice.caPEMish, wantUser: "alice", wantCalls: 1},
			{req: requestWith(alice.client, alice.ca), after: certCacheTTL - time.Second, caBundle: alice.caPEMish, wantUser: "alice", wantCalls: 1},
		}},
		{name: "an entry past the TTL is verified again", steps: []step{
			{req: requestWith(alice.client), caBundle: alice.caPEMish, wantUser: "alice", wantCalls: 1},
			{req: requestWith(alice.client), after: certCacheTTL, caBundle: alice.caPEMish, wantUser: "alice", wantCalls: 2},
		}},
		{name: "a certificate expiring before the TTL is not answered past its expiry", steps: []step{
			{req: requestWith(bob.client), caBundle: bob.caPEMish, wantUser: "bob", wantCalls: 1},
			{req: requestWith(bob.client), after: 9 * time.Second, caBundle: bob.caPEMish, wantUser: "bob", wantCalls: 1},
			{req: requestWith(bob.client), after: 11 * time.Second, caBundle: bob.caPEMish, wantUser: "bob", wantCalls: 2},
		}},
		{name: "a new client CA bundle verifies the chain afresh", steps: []step{
			{req: requestWith(alice.client), caBundle: alice.caPEMish, wantUser: "alice", wantCalls: 1},
			{req: requestWith(alice.client), caBundle: bob.caPEMish, wantUser: "alice", wantCalls: 2},
		}},
		{name: "another chain is verified on its own", steps: []step{
			{req: requestWith(alice.client), caBundle: alice.caPEMish, wantUser: "alice", wantCalls: 1},
			{req: requestWith(bob.client), caBundle: alice.caPEMish, wantUser: "bob", wantCalls: 2},
		}},
		{name: "a refused chain is never kept", steps: []step{
			{req: requestWith(alice.client), caBundle: alice.caPEMish, err: errors.New("x509: unknown authority"), wantCalls: 1},
			{req: requestWith(alice.client), caBundle: alice.caPEMish, err: errors.New("x509: unknown authority"), wantCalls: 2},
		}},
		{name: "requests without certificates go to the delegate", steps: []step{
			{req: requestWith(), caBundle: alice.caPEMish, wantCalls: 1},
			{req: requestWith(), caBundle: alice.caPEMish, wantCalls: 2},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			delegate := &countingAuthenticator{}
			var bundle []byte
			var clock time.Time
			c := newCertCache(delegate, func() []byte { return bundle })
			c.now = func() time.Time { return clock }
			for i, s := range tc.steps {
				bundle, clock, delegate.err = s.caBundle, now.Add(s.after), s.err
				resp, ok, err := c.AuthenticateRequest(s.req)
				got := ""
				if ok && err == nil {
					got = resp.User.GetName()
					resp.User = nil // a caller changing its answer must not change the cache's
				}
				if got != s.wantUser || delegate.calls != s.wantCalls {
					t.Errorf("step %d: user %q and %d delegate calls, want %q and %d (err %v)", i, got, delegate.calls, s.wantUser, s.wantCalls, err)
				}
			}
		})
	}
}

// BenchmarkClientCertificate: Kubernetes' x509 authenticator alone
// (every request verified) against it behind certCache, for one client
// sending many requests with the same chain.
func BenchmarkClientCertificate(b *testing.B) {
	chain := newTestChain(b, "system:mco-scheduler", time.Now().Add(24*time.Hour))
	pool := x509.NewCertPool()
	pool.AddCert(chain.ca)
	verify := func() (x509.VerifyOptions, bool) {
		return x509.VerifyOptions{Roots: pool, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}, true
	}
	x509Auth := x509request.NewDynamic(verify, x509request.CommonNameUserConversion)
	for _, bc := range []struct {
		name string
		auth authenticator.Request
	}{
		{"verified each time", x509Auth},
		{"cached", newCertCache(x509Auth, func() []byte { return chain.caPEMish })},
	} {
		b.Run(bc.name, func(b *testing.B) {
			req := requestWith(chain.client)
			for b.Loop() {
				if _, ok, err := bc.auth.AuthenticateRequest(req); !ok || err != nil {
					b.Fatalf("refused: %v", err)
				}
			}
		})
	}
}
