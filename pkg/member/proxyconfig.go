package member

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/rest"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

// ImpersonatorConfig is the client configuration the cluster proxy reaches
// a Push member with: the endpoint and CA of the Cluster's secretRef, the
// token of its impersonatorSecretRef, and no overall timeout (watches go
// through it). Callers add who to impersonate.
func ImpersonatorConfig(c *clusterv1alpha1.Cluster, secret, impersonator *corev1.Secret) (*rest.Config, error) {
	if len(impersonator.Data[clusterv1alpha1.SecretTokenKey]) == 0 {
		return nil, fmt.Errorf("impersonator secret %s/%s of cluster %s has no %q",
			impersonator.Namespace, impersonator.Name, c.Name, clusterv1alpha1.SecretTokenKey)
	}
	withToken := secret.DeepCopy()
	if withToken.Data == nil {
		withToken.Data = map[string][]byte{}
	}
	withToken.Data[clusterv1alpha1.SecretTokenKey] = impersonator.Data[clusterv1alpha1.SecretTokenKey]
	cfg, err := restConfig(c, withToken, 0, 0)
	if err != nil {
		return nil, err
	}
	cfg.Timeout = 0
	cfg.UserAgent = "mco-apiserver/cluster-proxy"
	return cfg, nil
}

// ImpersonatorFingerprint changes whenever ImpersonatorConfig's result
// would, for caching what is built from it.
func ImpersonatorFingerprint(c *clusterv1alpha1.Cluster, secret, impersonator *corev1.Secret) string {
	return fingerprint(c, secret) + "/" + fingerprint(c, impersonator)
}

// Config is the client configuration of a Push cluster with mco's own
// credentials (its secretRef), for what mco-apiserver reads in members
// itself (metrics.k8s.io across members).
func Config(c *clusterv1alpha1.Cluster, secret *corev1.Secret, userAgent string) (*rest.Config, error) {
	cfg, err := restConfig(c, secret, 0, 0)
	if err != nil {
		return nil, err
	}
	cfg.UserAgent = userAgent
	return cfg, nil
}

// Fingerprint changes whenever Config's result would, for caching what is
// built from it.
func Fingerprint(c *clusterv1alpha1.Cluster, secret *corev1.Secret) string {
	return fingerprint(c, secret)
}
