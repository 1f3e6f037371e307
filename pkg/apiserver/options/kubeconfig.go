package options

import (
	"fmt"
	"os"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/mco-org/mco/pkg/apiserver/pki"
)

// WriteAdminKubeconfig writes a kubeconfig with context "mco" that reaches
// the server at serverURL as the admin user.
func WriteAdminKubeconfig(path string, files pki.Files, serverURL string) error {
	read := func(p string) ([]byte, error) {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", p, err)
		}
		return b, nil
	}
	ca, err := read(files.CACert)
	if err != nil {
		return err
	}
	crt, err := read(files.AdminCert)
	if err != nil {
		return err
	}
	key, err := read(files.AdminKey)
	if err != nil {
		return err
	}
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["mco"] = &clientcmdapi.Cluster{Server: serverURL, CertificateAuthorityData: ca}
	cfg.AuthInfos["mco-admin"] = &clientcmdapi.AuthInfo{ClientCertificateData: crt, ClientKeyData: key}
	cfg.Contexts["mco"] = &clientcmdapi.Context{Cluster: "mco", AuthInfo: "mco-admin"}
	cfg.CurrentContext = "mco"
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		return fmt.Errorf("write kubeconfig %s: %w", path, err)
	}
	return os.Chmod(path, 0o600)
}
