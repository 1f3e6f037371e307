// Package encryption writes the encryption-at-rest configuration
// mco-apiserver reads with --encryption-provider-config (kube-apiserver's
// EncryptionConfiguration): Secrets, and the Works that carry propagated
// Secrets to members (every Work: a Work's content is not known in
// advance), encrypted with AES-CBC under a key generated once.
package encryption

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// template is an EncryptionConfiguration: Secrets and Works are written
// with the first provider, and read with any (identity, for what was stored before
// encryption was turned on).
const template = `# Secrets (and Works, which carry them to members) at rest in mco-apiserver's etcd. To rotate: add a new key first in
# the list, restart every mco-apiserver replica, rewrite every Secret
# (kubectl get secrets -A -o json | kubectl replace -f -), then drop the old
# key and restart again.
apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
- resources: [secrets, works.work.karmada.io]
  providers:
  - aescbc:
      keys:
      - name: key1
        secret: %s
  - identity: {}
`

// EnsureConfig writes a configuration with a fresh 32-byte key at path,
// unless a file is already there (a key must outlive restarts, or what it
// encrypted cannot be read).
func EnsureConfig(path string) error {
	if raw, err := os.ReadFile(path); err == nil {
		return upgrade(path, raw)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("encryption config %s: %w", path, err)
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return fmt.Errorf("generate encryption key: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("encryption config directory: %w", err)
	}
	content := fmt.Sprintf(template, base64.StdEncoding.EncodeToString(key))
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		return fmt.Errorf("write encryption config: %w", err)
	}
	return nil
}

// secretsOnly is the resource line of the configuration an earlier mco
// wrote, which encrypted Secrets alone.
const secretsOnly = "- resources: [secrets]\n"

// upgrade adds Works to a configuration an earlier mco wrote for Secrets
// alone, keeping its key; any other file (a user's own) is left as it is.
// Works stored before stay readable (identity) and are encrypted when next
// written.
func upgrade(path string, raw []byte) error {
	content := string(raw)
	if strings.Count(content, secretsOnly) != 1 || strings.Contains(content, "works.work.karmada.io") {
		return nil
	}
	content = strings.Replace(content, secretsOnly, "- resources: [secrets, works.work.karmada.io]\n", 1)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		return fmt.Errorf("encryption config %s: %w", path, err)
	}
	return nil
}
