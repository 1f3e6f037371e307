// Package pki creates and reloads the certificates of mco-apiserver: a CA
// (its own, or one shared by several replicas), a serving certificate
// signed by it, and a client certificate per identity: the admin and each
// component.
package pki

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"slices"
	"time"

	"k8s.io/client-go/util/cert"
	"k8s.io/client-go/util/keyutil"
)

// Client is an identity mco-apiserver issues a client certificate for.
type Client struct {
	// Name names the files: <Name>.crt, <Name>.key, <Name>.kubeconfig.
	Name string
	// User and Groups are what the certificate authenticates as (its
	// common name and organizations).
	User   string
	Groups []string
}

// The identities issued on first start.
var (
	Admin             = Client{Name: "admin", User: "mco-admin", Groups: []string{"system:masters"}}
	Scheduler         = Client{Name: "scheduler", User: "system:mco-scheduler"}
	ControllerManager = Client{Name: "controller-manager", User: "system:mco-controller-manager"}
	Clients           = []Client{Admin, Scheduler, ControllerManager}
)

// Files are the paths of the PKI under a data directory.
type Files struct {
	Dir                     string
	CACert, CAKey           string
	ServingCert, ServingKey string
	AdminCert, AdminKey     string
}

// FilesIn returns the PKI paths under dir.
func FilesIn(dir string) Files {
	p := func(name string) string { return filepath.Join(dir, name) }
	return Files{
		Dir:    dir,
		CACert: p("ca.crt"), CAKey: p("ca.key"),
		ServingCert: p("apiserver.crt"), ServingKey: p("apiserver.key"),
		AdminCert: p("admin.crt"), AdminKey: p("admin.key"),
	}
}

// ClientPair returns the certificate and key paths of an identity.
func (f Files) ClientPair(c Client) (certPath, keyPath string) {
	return filepath.Join(f.Dir, c.Name+".crt"), filepath.Join(f.Dir, c.Name+".key")
}

// SharedCA is a CA several replicas trust, given by files instead of the
// one created under the data directory. Without its key nothing is issued:
// the serving certificate and the clients' come from elsewhere.
type SharedCA struct {
	CertFile, KeyFile string
}

// validity of the certificates created here.
const validity = 10 * 365 * 24 * time.Hour

// Ensure creates whatever part of the PKI is missing under dir and leaves
// existing files untouched. The serving certificate names hosts (DNS names
// or IP addresses) plus localhost and 127.0.0.1. With a shared CA, dir
// holds no CA of its own; it reports whether client certificates could be
// issued (false when the shared CA's key is not given).
func Ensure(dir string, hosts []string, shared SharedCA) (Files, bool, error) {
	f := FilesIn(dir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return f, false, fmt.Errorf("create pki directory: %w", err)
	}
	if shared.CertFile != "" {
		f.CACert, f.CAKey = shared.CertFile, shared.KeyFile
		if shared.KeyFile == "" {
			return f, false, nil
		}
	}
	caCert, caKey, err := ensureCA(f, shared.CertFile == "")
	if err != nil {
		return f, false, err
	}
	dns, ips := servingNames(hosts)
	if !exists(f.ServingKey) || !covers(f.ServingCert, dns, ips) {
		tmpl := &x509.Certificate{
			Subject:     pkix.Name{CommonName: "mco-apiserver"},
			DNSNames:    dns,
			IPAddresses: ips,
			KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
			ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		}
		if err := issue(tmpl, caCert, caKey, f.ServingCert, f.ServingKey); err != nil {
			return f, false, fmt.Errorf("serving certificate: %w", err)
		}
	}
	for _, c := range Clients {
		if err := issueClient(f, c, caCert, caKey); err != nil {
			return f, false, err
		}
	}
	return f, true, nil
}

// IssueClient issues a client certificate for c under the PKI of f, whose
// CA key must be at hand, unless one exists.
func IssueClient(f Files, c Client) error {
	caCert, caKey, err := ensureCA(f, false)
	if err != nil {
		return err
	}
	return issueClient(f, c, caCert, caKey)
}

func issueClient(f Files, c Client, caCert *x509.Certificate, caKey crypto.Signer) error {
	certPath, keyPath := f.ClientPair(c)
	if exists(certPath) && exists(keyPath) {
		return nil
	}
	tmpl := &x509.Certificate{
		Subject:     pkix.Name{CommonName: c.User, Organization: c.Groups},
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	if err := issue(tmpl, caCert, caKey, certPath, keyPath); err != nil {
		return fmt.Errorf("client certificate of %s: %w", c.Name, err)
	}
	return nil
}

// servingNames splits the serving certificate's hosts into DNS names and
// IP addresses, localhost and 127.0.0.1 first.
func servingNames(hosts []string) ([]string, []net.IP) {
	var ips []net.IP
	dns := []string{"localhost"}
	for _, h := range append([]string{"127.0.0.1"}, hosts...) {
		if ip := net.ParseIP(h); ip != nil {
			if !ip.IsUnspecified() && !slices.ContainsFunc(ips, ip.Equal) {
				ips = append(ips, ip)
			}
		} else if h != "" && !slices.Contains(dns, h) {
			dns = append(dns, h)
		}
	}
	return dns, ips
}

// covers tells whether the certificate at path exists and names every DNS
// name and IP address; a serving certificate that does not is issued again.
func covers(path string, dns []string, ips []net.IP) bool {
	certs, err := cert.CertsFromFile(path)
	if err != nil || len(certs) == 0 {
		return false
	}
	c := certs[0]
	for _, name := range dns {
		if !slices.Contains(c.DNSNames, name) {
			return false
		}
	}
	for _, ip := range ips {
		if !slices.ContainsFunc(c.IPAddresses, ip.Equal) {
			return false
		}
	}
	return true
}

// ensureCA loads the CA, creating it first when absent and create is set.
func ensureCA(f Files, create bool) (*x509.Certificate, crypto.Signer, error) {
	if create && (!exists(f.CACert) || !exists(f.CAKey)) {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, nil, fmt.Errorf("generate CA key: %w", err)
		}
		ca, err := cert.NewSelfSignedCACert(cert.Config{CommonName: "mco-ca"}, key)
		if err != nil {
			return nil, nil, fmt.Errorf("create CA certificate: %w", err)
		}
		if err := write(f.CACert, f.CAKey, ca, key); err != nil {
			return nil, nil, err
		}
	}
	certs, err := cert.CertsFromFile(f.CACert)
	if err != nil {
		return nil, nil, fmt.Errorf("read CA certificate: %w", err)
	}
	keyAny, err := keyutil.PrivateKeyFromFile(f.CAKey)
	if err != nil {
		return nil, nil, fmt.Errorf("read CA key: %w", err)
	}
	key, ok := keyAny.(crypto.Signer)
	if !ok {
		return nil, nil, errors.New("CA key cannot sign")
	}
	return certs[0], key, nil
}

// issue signs tmpl with the CA and writes the certificate and a new key.
func issue(tmpl *x509.Certificate, ca *x509.Certificate, caKey crypto.Signer, certPath, keyPath string) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return fmt.Errorf("generate key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	if err != nil {
		return fmt.Errorf("serial number: %w", err)
	}
	now := time.Now()
	tmpl.SerialNumber = serial
	tmpl.NotBefore = now.Add(-time.Hour)
	tmpl.NotAfter = now.Add(validity)
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, key.Public(), caKey)
	if err != nil {
		return fmt.Errorf("sign certificate: %w", err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		return fmt.Errorf("parse certificate: %w", err)
	}
	return write(certPath, keyPath, c, key)
}

// write stores a certificate and its key as PEM, the key readable by the owner only.
func write(certPath, keyPath string, c *x509.Certificate, key *ecdsa.PrivateKey) error {
	keyPEM, err := keyutil.MarshalPrivateKeyToPEM(key)
	if err != nil {
		return fmt.Errorf("encode key: %w", err)
	}
	if err := keyutil.WriteKey(keyPath, keyPEM); err != nil {
		return fmt.Errorf("write %s: %w", keyPath, err)
	}
	certPEM, err := cert.EncodeCertificates(c)
	if err != nil {
		return fmt.Errorf("encode certificate: %w", err)
	}
	if err := cert.WriteCert(certPath, certPEM); err != nil {
		return fmt.Errorf("write %s: %w", certPath, err)
	}
	return nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
