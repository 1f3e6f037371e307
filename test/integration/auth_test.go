package integration

import (
	"crypto/tls"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mco-org/mco/test/integration/framework"
)

// TestAuthentication: no credentials get 401 (health paths excepted); a
// bearer token from --token-auth-file is accepted, and then authorized:
// without any binding its user is refused with 403.
func TestAuthentication(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens.csv")
	if err := os.WriteFile(tokens, []byte("s3cret-token,alice,1001,\"developers\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := framework.StartAPIServer(t, dir, "--token-auth-file", tokens)
	insecure := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	get := func(path, token string) int {
		req, err := http.NewRequest(http.MethodGet, s.URL()+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := insecure.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	cases := []struct {
		path, token string
		want        int
	}{
		{"/api/v1/namespaces", "", http.StatusUnauthorized},
		{"/apis/policy.karmada.io/v1alpha1/propagationpolicies", "", http.StatusUnauthorized},
		{"/apis/policy.karmada.io/v1alpha1/propagationpolicies", "wrong", http.StatusUnauthorized},
		{"/apis/policy.karmada.io/v1alpha1/propagationpolicies", "s3cret-token", http.StatusForbidden},
		{"/api", "s3cret-token", http.StatusOK},     // system:discovery
		{"/version", "s3cret-token", http.StatusOK}, // system:public-info-viewer
		{"/readyz", "", http.StatusOK},
		{"/livez", "", http.StatusOK},
		{"/metrics", "", http.StatusUnauthorized},
		{"/metrics", "s3cret-token", http.StatusForbidden},
	}
	for _, c := range cases {
		if got := get(c.path, c.token); got != c.want {
			t.Errorf("GET %s with token %q: %d, want %d", c.path, c.token, got, c.want)
		}
	}
	// kubectl with a token the server does not know is refused as well.
	out, errOut, err := s.Kubectl(t, "", "--kubeconfig", "/dev/null", "--insecure-skip-tls-verify", "--token", "not-a-token", "get", "namespaces")
	if err == nil || !strings.Contains(errOut, "Unauthorized") && !strings.Contains(errOut, "logged in") {
		t.Errorf("kubectl with an unknown token: err=%v out=%s stderr=%s", err, out, errOut)
	}
}
