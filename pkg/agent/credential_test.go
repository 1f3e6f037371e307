package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubefake "k8s.io/client-go/kubernetes/fake"
)

func TestCredentialStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "mco.kubeconfig")
	if err := os.WriteFile(file, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	member := kubefake.NewClientset(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "mco-system", Name: "mco-agent"},
		Data: map[string][]byte{KubeconfigKey: []byte("old")}})
	cases := []struct {
		name  string
		store credentialStore
	}{
		{"a file is read and written back", credentialStore{file: file}},
		{"a member Secret is read and written back", credentialStore{secret: "mco-system/mco-agent", member: member}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := c.store.load(ctx)
			if err != nil || string(got) != "old" {
				t.Fatalf("load = %q, %v", got, err)
			}
			if err := c.store.store(ctx, []byte("new")); err != nil {
				t.Fatal(err)
			}
			if got, err := c.store.load(ctx); err != nil || string(got) != "new" {
				t.Errorf("load after store = %q, %v", got, err)
			}
		})
	}
	bad := credentialStore{secret: "mco-agent", member: member}
	if _, err := bad.load(ctx); err == nil || !strings.Contains(err.Error(), "want NAMESPACE/NAME") {
		t.Errorf("load of a secret without namespace: %v", err)
	}
}
