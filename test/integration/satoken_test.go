package integration

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gopkg.in/go-jose/go-jose.v2/jwt"
	authenticationv1 "k8s.io/api/authentication/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/keyutil"
	"k8s.io/kubernetes/pkg/serviceaccount"

	"github.com/mco-org/mco/pkg/apiserver/options"
	"github.com/mco-org/mco/test/integration/framework"
)

// TestServiceAccountTokens: kubectl create token gives a ServiceAccount
// bound to view a token that reads what view allows and nothing else;
// TokenReview accepts it; a token past its expiry, and any token of a
// deleted ServiceAccount, get 401; a lifetime under ten minutes is refused.
func TestServiceAccountTokens(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := framework.StartAPIServer(t, dir)
	s.MustKubectl(t, `apiVersion: v1
kind: Namespace
metadata: {name: ci}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: pipeline, namespace: ci}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: ci}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: pipeline-view, namespace: ci}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
subjects: [{kind: ServiceAccount, name: pipeline, namespace: ci}]
`, "apply", "-f", "-")
	token := strings.TrimSpace(s.MustKubectl(t, "", "-n", "ci", "create", "token", "pipeline"))
	as := func(token string, args ...string) (string, string, error) {
		return s.Kubectl(t, "", append([]string{"--kubeconfig", "/dev/null", "--insecure-skip-tls-verify", "--token", token}, args...)...)
	}
	// The authenticator reads ServiceAccounts from an informer: wait for it.
	var out, errOut string
	_ = wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		out, errOut, _ = as(token, "auth", "whoami", "-o", "jsonpath={.status.userInfo.username}")
		return out == "system:serviceaccount:ci:pipeline", nil
	})
	if out != "system:serviceaccount:ci:pipeline" {
		t.Fatalf("whoami with the token: %q (%s)", out, errOut)
	}
	if out, errOut, err := as(token, "-n", "ci", "get", "configmap", "settings", "-o", "name"); err != nil || out != "configmap/settings\n" {
		t.Errorf("view reads ConfigMaps: %q %v %s", out, err, errOut)
	}
	if _, errOut, err := as(token, "-n", "ci", "create", "configmap", "more"); err == nil || !strings.Contains(errOut, "forbidden") {
		t.Errorf("view created a ConfigMap: %v %s", err, errOut)
	}

	review, err := s.Client(t).AuthenticationV1().TokenReviews().Create(context.Background(),
		&authenticationv1.TokenReview{Spec: authenticationv1.TokenReviewSpec{Token: token}}, metav1.CreateOptions{})
	if err != nil || !review.Status.Authenticated || review.Status.User.Username != "system:serviceaccount:ci:pipeline" {
		t.Errorf("TokenReview: %v %+v", err, review.Status)
	}
	if _, errOut, err := s.Kubectl(t, "", "-n", "ci", "create", "token", "pipeline", "--duration", "1m"); err == nil || !strings.Contains(errOut, "10 minutes") {
		t.Errorf("a one-minute token was issued: %v %s", err, errOut)
	}

	// A token signed with the right key for the right ServiceAccount, but
	// expired an hour ago.
	sa, err := s.Client(t).CoreV1().ServiceAccounts("ci").Get(context.Background(), "pipeline", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	key, err := keyutil.PrivateKeyFromFile(filepath.Join(dir, "pki", "sa.key"))
	if err != nil {
		t.Fatal(err)
	}
	generator, err := serviceaccount.JWTTokenGenerator(options.DefaultServiceAccountIssuer, key)
	if err != nil {
		t.Fatal(err)
	}
	past := time.Now().Add(-2 * time.Hour)
	expired, err := generator.GenerateToken(context.Background(), &jwt.Claims{
		Subject: "system:serviceaccount:ci:pipeline", Audience: jwt.Audience{options.DefaultServiceAccountIssuer},
		IssuedAt: jwt.NewNumericDate(past), NotBefore: jwt.NewNumericDate(past), Expiry: jwt.NewNumericDate(past.Add(time.Hour)),
	}, map[string]any{"kubernetes.io": map[string]any{"namespace": "ci", "serviceaccount": map[string]any{"name": "pipeline", "uid": string(sa.UID)}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, errOut, err := as(expired, "-n", "ci", "get", "configmaps"); err == nil || !strings.Contains(errOut, "Unauthorized") && !strings.Contains(errOut, "logged in") {
		t.Errorf("an expired token was accepted: %v %s", err, errOut)
	}

	s.MustKubectl(t, "", "-n", "ci", "delete", "serviceaccount", "pipeline")
	_ = wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		_, errOut, err = as(token, "-n", "ci", "get", "configmaps")
		return err != nil, nil
	})
	if err == nil || !strings.Contains(errOut, "Unauthorized") && !strings.Contains(errOut, "logged in") {
		t.Errorf("the token of a deleted ServiceAccount was accepted: %v %s", err, errOut)
	}
}
