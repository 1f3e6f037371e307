package chart

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"
)

// Credentials reach a repository: basic auth, a CA to trust, a client
// certificate (from the Secret chart.secretRef names).
type Credentials struct {
	Username, Password string
	CA, Cert, Key      []byte
}

// linkLocal are the addresses a fetch refuses unless allowed: cloud
// metadata services answer there (169.254.169.254, fd00:ec2::254 aside).
var linkLocal = []*net.IPNet{mustCIDR("169.254.0.0/16"), mustCIDR("fe80::/10")}

func mustCIDR(s string) *net.IPNet {
	_, n, err := net.ParseCIDR(s)
	if err != nil {
		panic(err)
	}
	return n
}

// refuseLinkLocal is a dialer's Control: it refuses connections to
// link-local addresses, checked on the address actually dialled (after
// name resolution and redirects).
func refuseLinkLocal(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	ip := net.ParseIP(host)
	for _, n := range linkLocal {
		if ip != nil && n.Contains(ip) {
			return fmt.Errorf("refusing to fetch from link-local address %s (cloud metadata lives there; --addon-allow-link-local allows it)", host)
		}
	}
	return nil
}

// httpClient builds the client of one fetch: the credentials' TLS, a
// time limit, and link-local addresses refused unless allowLinkLocal.
func httpClient(creds *Credentials, timeout time.Duration, allowLinkLocal bool) (*http.Client, error) {
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if !allowLinkLocal {
		dialer.Control = refuseLinkLocal
	}
	tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12}
	if creds != nil && len(creds.CA) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(creds.CA) {
			return nil, fmt.Errorf("the repository's CA (caFile) holds no PEM certificate")
		}
		tlsConfig.RootCAs = pool
	}
	if creds != nil && len(creds.Cert) > 0 {
		cert, err := tls.X509KeyPair(creds.Cert, creds.Key)
		if err != nil {
			return nil, fmt.Errorf("the repository's client certificate (certFile, keyFile): %w", err)
		}
		tlsConfig.Certificates = []tls.Certificate{cert}
	}
	transport := &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         dialer.DialContext,
		TLSClientConfig:     tlsConfig,
		TLSHandshakeTimeout: 10 * time.Second,
		MaxIdleConns:        10,
		IdleConnTimeout:     90 * time.Second,
	}
	return &http.Client{Transport: transport, Timeout: timeout}, nil
}
