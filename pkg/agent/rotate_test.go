package agent

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/tools/clientcmd"
)

func jwt(claims string) string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"ES256"}`)) + "." + enc([]byte(claims)) + ".sig"
}

func TestTokenTimes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		token   string
		wantErr string
		renew   time.Time
	}{
		{"a day-long token is renewed after 19.2 hours", jwt(`{"iat":1000,"exp":87400}`), "", time.Unix(1000+69120, 0)},
		{"a token without expiry is not rotated", jwt(`{"iat":1000}`), "no lifetime", time.Time{}},
		{"garbage is no token", "abc", "not a JWT", time.Time{}},
		{"undecodable claims are refused", "a.!!!.c", "decode claims", time.Time{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			issued, expires, err := tokenTimes(c.token)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("tokenTimes error = %v, want one containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := renewAt(issued, expires); !got.Equal(c.renew) {
				t.Errorf("renewAt = %s, want %s", got, c.renew)
			}
		})
	}
}

func TestWithTokenAndBearer(t *testing.T) {
	t.Parallel()
	raw := []byte(`apiVersion: v1
kind: Config
clusters: [{name: mco, cluster: {server: "https://127.0.0.1:6443"}}]
users: [{name: agent, user: {token: old}}]
contexts: [{name: mco, context: {cluster: mco, user: agent}}]
current-context: mco
`)
	cred := &credential{}
	cfg, err := mcoConfig(raw, cred)
	if err != nil {
		t.Fatal(err)
	}
	if tok, _ := cred.get(); tok != "old" || cfg.BearerToken != "" {
		t.Fatalf("credential %q, config token %q: want the token held by the credential only", tok, cfg.BearerToken)
	}
	updated, err := withToken(raw, "new")
	if err != nil {
		t.Fatal(err)
	}
	got, err := clientcmd.RESTConfigFromKubeConfig(updated)
	if err != nil {
		t.Fatal(err)
	}
	if got.BearerToken != "new" || got.Host != "https://127.0.0.1:6443" {
		t.Errorf("rewritten kubeconfig: host %s token %q", got.Host, got.BearerToken)
	}
	if _, err := mcoConfig([]byte("apiVersion: v1\nkind: Config\n"), &credential{}); err == nil {
		t.Error("a kubeconfig without a cluster was accepted")
	}
}
