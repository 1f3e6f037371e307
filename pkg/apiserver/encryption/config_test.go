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
