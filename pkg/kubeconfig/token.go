package kubeconfig

import (
	"fmt"
	"os"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// Token renders a kubeconfig of one context, name, reaching server
// (trusting the PEM CA ca) with a bearer token.
func Token(name, server string, ca []byte, token string) ([]byte, error) {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[name] = &clientcmdapi.Cluster{Server: server, CertificateAuthorityData: ca}
	cfg.AuthInfos[name] = &clientcmdapi.AuthInfo{Token: token}
	cfg.Contexts[name] = &clientcmdapi.Context{Cluster: name, AuthInfo: name}
	cfg.CurrentContext = name
	data, err := clientcmd.Write(*cfg)
	if err != nil {
		return nil, fmt.Errorf("render kubeconfig of %s: %w", server, err)
	}
	return data, nil
}

// WriteToken writes the kubeconfig of Token to path, readable by its owner
// only.
func WriteToken(path, name, server string, ca []byte, token string) error {
	data, err := Token(name, server, ca, token)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return fmt.Errorf("write kubeconfig %s: %w", path, err)
	}
	return os.Chmod(path, 0o600) // an existing file keeps its mode otherwise
}
