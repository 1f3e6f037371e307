package localcluster

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"

	"k8s.io/client-go/util/keyutil"

	"github.com/mco-org/mco/pkg/apiserver/pki"
)

// PKI is what every member shares: a CA, a serving certificate for
// 127.0.0.1/localhost, an admin client certificate (system:masters) and the
// service-account signing key (kube-apiserver derives the public key from it).
type PKI struct {
	pki.Files
	ServiceAccountKey string
}

// ensurePKI creates the PKI under dir unless present.
func ensurePKI(dir string) (PKI, error) {
	files, _, err := pki.Ensure(dir, nil, pki.SharedCA{})
	if err != nil {
		return PKI{}, err
	}
	p := PKI{Files: files,
		ServiceAccountKey: filepath.Join(dir, "sa.key"),
	}
	if _, err := os.Stat(p.ServiceAccountKey); err == nil {
		return p, nil
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return p, fmt.Errorf("service account key: %w", err)
	}
	keyPEM, err := keyutil.MarshalPrivateKeyToPEM(key)
	if err != nil {
		return p, fmt.Errorf("encode service account key: %w", err)
	}
	return p, keyutil.WriteKey(p.ServiceAccountKey, keyPEM)
}
