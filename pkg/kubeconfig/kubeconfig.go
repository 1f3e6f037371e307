// Package kubeconfig writes kubeconfig files for clusters reached with a
// client certificate.
package kubeconfig

import (
	"fmt"
	"os"
	"path/filepath"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/mco-org/mco/pkg/apiserver/pki"
)

// Context is one cluster, user and context, all named Name.
type Context struct {
	Name   string
	Server string
	// PKI files: the CA to trust and the client certificates.
	Files pki.Files
	// Client is the identity to present; the admin when unset.
	Client pki.Client
}

// Write writes a kubeconfig holding every context, the first one current.
func Write(path string, contexts ...Context) error {
	cfg := clientcmdapi.NewConfig()
	for i, c := range contexts {
		ca, err := os.ReadFile(c.Files.CACert)
		if err != nil {
			return fmt.Errorf("read CA: %w", err)
		}
		certPath, keyPath := c.Files.AdminCert, c.Files.AdminKey
		if c.Client.Name != "" {
			certPath, keyPath = c.Files.ClientPair(c.Client)
		}
		crt, err := os.ReadFile(certPath)
		if err != nil {
			return fmt.Errorf("read client certificate: %w", err)
		}
		key, err := os.ReadFile(keyPath)
		if err != nil {
			return fmt.Errorf("read client key: %w", err)
		}
		cfg.Clusters[c.Name] = &clientcmdapi.Cluster{Server: c.Server, CertificateAuthorityData: ca}
		cfg.AuthInfos[c.Name] = &clientcmdapi.AuthInfo{ClientCertificateData: crt, ClientKeyData: key}
		cfg.Contexts[c.Name] = &clientcmdapi.Context{Cluster: c.Name, AuthInfo: c.Name}
		if i == 0 {
			cfg.CurrentContext = c.Name
		}
	}
	data, err := clientcmd.Write(*cfg)
	if err != nil {
		return fmt.Errorf("encode kubeconfig %s: %w", path, err)
	}
	return writeWhole(path, data)
}

// writeWhole writes data to path whole or not at all (a temporary file in the
// same directory, renamed), so whoever waits for the file (local-up, the
// tests) never reads half of it. The directory is created when missing.
func writeWhole(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write kubeconfig %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(dir, filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write kubeconfig %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // gone after the rename; cleans up on failure
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write kubeconfig %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write kubeconfig %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write kubeconfig %s: %w", path, err)
	}
	return nil
}
