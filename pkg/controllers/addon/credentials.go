package addon

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/mco-org/mco/pkg/addon/chart"
)

// Keys of a repository credentials Secret (chart.secretRef).
const (
	KeyUsername = "username"
	KeyPassword = "password"
	KeyCA       = "caFile"
	KeyCert     = "certFile"
	KeyKey      = "keyFile"
)

// CredentialsFrom reads a repository credentials Secret; nil for none.
func CredentialsFrom(sec *corev1.Secret) *chart.Credentials {
	if sec == nil {
		return nil
	}
	return &chart.Credentials{
		Username: string(sec.Data[KeyUsername]), Password: string(sec.Data[KeyPassword]),
		CA: sec.Data[KeyCA], Cert: sec.Data[KeyCert], Key: sec.Data[KeyKey],
	}
}
