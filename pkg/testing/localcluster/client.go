package localcluster

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/mco-org/mco/pkg/apiserver/pki"
)

// httpsClient presents the admin certificate and trusts the CA.
func httpsClient(files pki.Files) (*http.Client, error) {
	ca, err := os.ReadFile(files.CACert)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(ca)
	cert, err := tls.LoadX509KeyPair(files.AdminCert, files.AdminKey)
	if err != nil {
		return nil, err
	}
	return &http.Client{
		Timeout: 5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{
			RootCAs: pool, Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12,
		}},
	}, nil
}

// waitHTTPS polls an https url with the admin identity until it answers 200.
func waitHTTPS(ctx context.Context, url string, files pki.Files, timeout time.Duration, p *Process) error {
	client, err := httpsClient(files)
	if err != nil {
		return err
	}
	return waitHTTP(ctx, client, url, timeout, p)
}

// RESTConfig loads a kubeconfig file.
func RESTConfig(path string) (*rest.Config, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		return nil, fmt.Errorf("load kubeconfig %s: %w", path, err)
	}
	cfg.QPS, cfg.Burst = 50, 100
	return cfg, nil
}

// Client returns a client of the member.
func (m *Member) Client() (kubernetes.Interface, error) {
	cfg, err := RESTConfig(m.Kubeconfig)
	if err != nil {
		return nil, err
	}
	return kubernetes.NewForConfig(cfg)
}
