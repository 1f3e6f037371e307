package encryption

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEnsureConfig(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "pki", "encryption.yaml")
	if err := EnsureConfig(path); err != nil {
		t.Fatal(err)
	}
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(first), "aescbc") || strings.Count(string(first), "secret: ") != 1 {
		t.Errorf("unexpected configuration:\n%s", first)
	}
	info, _ := os.Stat(path)
	if info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600: the key is a secret", info.Mode().Perm())
	}
	// A second call keeps the key: what it encrypted stays readable.
	if err := EnsureConfig(path); err != nil {
		t.Fatal(err)
	}
	if second, _ := os.ReadFile(path); string(second) != string(first) {
		t.Errorf("the key changed on the second call")
	}
}

func TestEnsureConfigAddsWorksToAnEarlierConfig(t *testing.T) {
	t.Parallel()
	earlier := "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n- resources: [secrets]\n  providers:\n" +
		"  - aescbc:\n      keys:\n      - name: key1\n        secret: c2VjcmV0\n  - identity: {}\n"
	own := "resources:\n- resources: [secrets, configmaps]\n  providers: [{identity: {}}]\n"
	for name, tc := range map[string]struct{ in, want string }{
		"mco's earlier file gains Works, its key kept": {earlier, strings.Replace(earlier, "[secrets]", "[secrets, works.work.karmada.io]", 1)},
		"a user's own file is left as it is":           {own, own},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "encryption.yaml")
			if err := os.WriteFile(path, []byte(tc.in), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := EnsureConfig(path); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(path); string(got) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
