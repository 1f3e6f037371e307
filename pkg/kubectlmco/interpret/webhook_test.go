package interpret_test

import (
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/utils/ptr"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
)

// webhookConfig writes a configuration whose one webhook, served here,
// answers InterpretReplica for WebApps with 7 replicas.
func webhookConfig(t *testing.T) string {
	t.Helper()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in configv1alpha1.ResourceInterpreterContext
		_ = json.NewDecoder(r.Body).Decode(&in)
		_ = json.NewEncoder(w).Encode(&configv1alpha1.ResourceInterpreterContext{TypeMeta: in.TypeMeta,
			Response: &configv1alpha1.ResourceInterpreterResponse{UID: in.Request.UID, Successful: true, Replicas: ptr.To[int32](7)}})
	}))
	t.Cleanup(srv.Close)
	ca := base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}))
	path := filepath.Join(t.TempDir(), "webhook.yaml")
	if err := os.WriteFile(path, []byte(`apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterWebhookConfiguration
metadata: {name: webapps}
webhooks:
- name: webapps.example.com
  clientConfig: {url: "`+srv.URL+`", caBundle: `+ca+`}
  rules: [{operations: [InterpretReplica], apiGroups: [demo.example.com], apiVersions: ["*"], kinds: [WebApp]}]
  interpreterContextVersions: [v1alpha1]
- name: bad
  clientConfig: {url: "http://127.0.0.1/"}
  rules: [{operations: [InterpretHealth], apiGroups: [demo.example.com], apiVersions: ["*"], kinds: [WebApp]}]
  interpreterContextVersions: [v1alpha1]
`), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestWebhookConfigurations(t *testing.T) {
	config := webhookConfig(t)
	out, errOut, code := interpret("", "-f", config, "--operation", "interpretReplica", "--desired-file", "testdata/desired.yaml")
	if code != 0 || !strings.Contains(out, "# [1/2] replica:\n7\n") {
		t.Errorf("interpretReplica: exit %d, out %q, err %q", code, out, errOut)
	}
	out, _, code = interpret("", "-f", config, "--check")
	if code != 1 || !strings.Contains(out, "webapps.example.com:  PASS") || !strings.Contains(out, "bad:") || !strings.Contains(out, "ERROR") {
		t.Errorf("--check: exit %d, out %q", code, out)
	}
	// The operation no script or webhook gives is refused.
	_, errOut, code = interpret("", "-f", config, "--operation", "interpretDependency", "--desired-file", "testdata/desired.yaml")
	if code == 0 || !strings.Contains(errOut, "no customization or webhook gives InterpretDependency") {
		t.Errorf("interpretDependency: exit %d, err %q", code, errOut)
	}
}
