package chart

import (
	"crypto/x509"
	"encoding/pem"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/clientcmd"
)

// TestGeneratedPKI: in generate mode the certificates chain to the CA, the
// serving certificate names the Service (and extraSANs), each component's
// certificate is its own identity, and the admin kubeconfig trusts the CA.
func TestGeneratedPKI(t *testing.T) {
	objs := objects(t, render(t, "--set", "apiserver.extraSANs={mco.example.com,203.0.113.10}"))
	roots, caPEM := generatedCA(t, objs)

	cases := []struct {
		secret, cn string
		usage      x509.ExtKeyUsage
		dns        []string
	}{
		{release + "-apiserver-tls", "mco-apiserver", x509.ExtKeyUsageServerAuth,
			[]string{"mco-apiserver.mco-system.svc", "mco-apiserver.mco-system.svc.cluster.local", "localhost", "mco.example.com"}},
		{release + "-scheduler-client", "system:mco-scheduler", x509.ExtKeyUsageClientAuth, nil},
		{release + "-controller-manager-client", "system:mco-controller-manager", x509.ExtKeyUsageClientAuth, nil},
	}
	for _, tc := range cases {
		data, err := objectData(objs, "Secret", tc.secret)
		if err != nil {
			t.Fatal(err)
		}
		cert := parseCert(t, data["tls.crt"])
		if cert.Subject.CommonName != tc.cn {
			t.Errorf("%s: common name %q, want %q", tc.secret, cert.Subject.CommonName, tc.cn)
		}
		if _, err := cert.Verify(x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{tc.usage}}); err != nil {
			t.Errorf("%s does not verify against the CA for %v: %v", tc.secret, tc.usage, err)
		}
		for _, name := range tc.dns {
			if !slices.Contains(cert.DNSNames, name) {
				t.Errorf("%s lacks DNS name %s: %v", tc.secret, name, cert.DNSNames)
			}
		}
		if time.Until(cert.NotAfter) < 9*365*24*time.Hour {
			t.Errorf("%s expires %s, want the default 10 years", tc.secret, cert.NotAfter)
		}
		if data["ca.crt"] != caPEM {
			t.Errorf("%s ca.crt is not the CA", tc.secret)
		}
	}
	serving := parseCert(t, mustData(t, objs, release+"-apiserver-tls")["tls.crt"])
	var ips []string
	for _, ip := range serving.IPAddresses {
		ips = append(ips, ip.String())
	}
	if !slices.Contains(ips, "127.0.0.1") || !slices.Contains(ips, "203.0.113.10") {
		t.Errorf("serving certificate IPs %v, want 127.0.0.1 and 203.0.113.10", ips)
	}

	admin, err := clientcmd.Load([]byte(mustData(t, objs, release+"-admin-kubeconfig")["kubeconfig"]))
	if err != nil {
		t.Fatal(err)
	}
	cluster := admin.Clusters[admin.Contexts[admin.CurrentContext].Cluster]
	if string(cluster.CertificateAuthorityData) != caPEM {
		t.Error("the admin kubeconfig does not trust the CA")
	}
	if cluster.Server != "https://mco-apiserver.mco-system.svc:443" {
		t.Errorf("admin kubeconfig server %s", cluster.Server)
	}
	token := admin.AuthInfos[admin.Contexts[admin.CurrentContext].AuthInfo].Token
	tokens := mustData(t, objs, release+"-admin-token")["tokens.csv"]
	if len(token) < 32 || !strings.HasPrefix(tokens, token+",mco-admin,") || !strings.Contains(tokens, `"system:masters"`) {
		t.Errorf("admin token %d characters; tokens.csv %q does not give it to mco-admin in system:masters", len(token), tokens)
	}
}

func mustData(t *testing.T, objs []*unstructured.Unstructured, name string) map[string]string {
	t.Helper()
	data, err := objectData(objs, "Secret", name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func parseCert(t *testing.T, pemData string) *x509.Certificate {
	t.Helper()
	block, _ := pem.Decode([]byte(pemData))
	if block == nil {
		t.Fatalf("no PEM block in %.40q", pemData)
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return cert
}

// generatedCA returns the generated CA of a rendering as a pool of roots,
// and as PEM.
func generatedCA(t *testing.T, objs []*unstructured.Unstructured) (*x509.CertPool, string) {
	t.Helper()
	caData, err := objectData(objs, "Secret", release+"-ca")
	if err != nil {
		t.Fatal(err)
	}
	ca := parseCert(t, caData["tls.crt"])
	if !ca.IsCA {
		t.Fatal("the CA certificate is not a CA")
	}
	roots := x509.NewCertPool()
	roots.AddCert(ca)
	return roots, caData["tls.crt"]
}
