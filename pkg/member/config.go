// Package member turns a Cluster on mco into clients of that member
// cluster. It is the only code that reads member credentials: callers get
// clients, never tokens, and errors never carry a credential.
package member

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/rest"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

// requestTimeout bounds one request to a member, so that an unreachable
// member blocks a worker for at most this long.
const requestTimeout = 15 * time.Second

// restConfig builds the client configuration of a Push cluster from its
// spec and credentials secret.
func restConfig(c *clusterv1alpha1.Cluster, secret *corev1.Secret, qps float32, burst int) (*rest.Config, error) {
	if c.Spec.APIEndpoint == "" {
		return nil, fmt.Errorf("cluster %s has no spec.apiEndpoint", c.Name)
	}
	token := secret.Data[clusterv1alpha1.SecretTokenKey]
	if len(token) == 0 {
		return nil, fmt.Errorf("secret %s/%s of cluster %s has no %q", secret.Namespace, secret.Name, c.Name, clusterv1alpha1.SecretTokenKey)
	}
	cfg := &rest.Config{
		Host:        c.Spec.APIEndpoint,
		BearerToken: string(token),
		QPS:         qps,
		Burst:       burst,
		Timeout:     requestTimeout,
		UserAgent:   "mco-controller-manager",
	}
	if c.Spec.InsecureSkipTLSVerification {
		cfg.TLSClientConfig.Insecure = true
	} else {
		cfg.TLSClientConfig.CAData = secret.Data[clusterv1alpha1.SecretCADataKey]
	}
	if c.Spec.ProxyURL != "" {
		cfg.Proxy = nil // set below; parsed so that a bad URL is an error here
		u, err := parseProxy(c.Spec.ProxyURL)
		if err != nil {
			return nil, fmt.Errorf("cluster %s spec.proxyURL: %w", c.Name, err)
		}
		cfg.Proxy = u
		if len(c.Spec.ProxyHeader) > 0 {
			cfg.Wrap(withProxyHeaders(proxyHeaders(c.Spec.ProxyHeader)))
		}
	}
	return cfg, nil
}

// fingerprint changes whenever what restConfig reads changes, so a cached
// client is rebuilt after a new token, CA or endpoint. It is a hash: the
// credentials themselves are never kept outside the rest.Config.
func fingerprint(c *clusterv1alpha1.Cluster, secret *corev1.Secret) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s|%v|%s|", c.Spec.APIEndpoint, c.Spec.InsecureSkipTLSVerification, c.Spec.ProxyURL)
	keys := make([]string, 0, len(c.Spec.ProxyHeader))
	for k := range c.Spec.ProxyHeader {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(h, "%s=%s|", k, c.Spec.ProxyHeader[k])
	}
	h.Write(secret.Data[clusterv1alpha1.SecretTokenKey])
	h.Write([]byte{0})
	h.Write(secret.Data[clusterv1alpha1.SecretCADataKey])
	return hex.EncodeToString(h.Sum(nil))
}
