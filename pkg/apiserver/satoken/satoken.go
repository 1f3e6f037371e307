// Package satoken issues and accepts ServiceAccount tokens on
// mco-apiserver with Kubernetes' own JWT code: the signing key (given, or
// generated once under the data directory), the token generator the
// serviceaccounts/token subresource signs with, and the authenticator that
// accepts tokens until they expire or their ServiceAccount is gone.
package satoken

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/authentication/authenticator"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/util/keyutil"
	"k8s.io/kubernetes/pkg/serviceaccount"
)

// Options are the flags, named as kube-apiserver names them.
type Options struct {
	Issuer         string
	SigningKeyFile string
	// KeyFiles verify tokens; the signing key's public half when empty.
	KeyFiles []string
}

// EnsureSigningKey generates an ECDSA P-256 key at path unless a file is
// there (tokens signed before a restart stay valid).
func EnsureSigningKey(path string) error {
	if _, err := os.Stat(path); err == nil {
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("service account signing key %s: %w", path, err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return fmt.Errorf("generate service account signing key: %w", err)
	}
	pem, err := keyutil.MarshalPrivateKeyToPEM(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return keyutil.WriteKey(path, pem)
}

// Generator signs tokens with the signing key.
func (o Options) Generator() (serviceaccount.TokenGenerator, error) {
	key, err := keyutil.PrivateKeyFromFile(o.SigningKeyFile)
	if err != nil {
		return nil, fmt.Errorf("read --service-account-signing-key-file: %w", err)
	}
	return serviceaccount.JWTTokenGenerator(o.Issuer, key)
}

// Authenticator accepts tokens of o.Issuer for audiences, verified with
// the public keys, while their ServiceAccount (same name and uid) exists.
// It reads ServiceAccounts from inf, started by the caller, and from client
// when inf does not have them (yet).
func (o Options) Authenticator(audiences []string, inf informers.SharedInformerFactory, client kubernetes.Interface) (authenticator.Token, error) {
	files := o.KeyFiles
	if len(files) == 0 {
		files = []string{o.SigningKeyFile}
	}
	var keys []any
	for _, f := range files {
		k, err := keyutil.PublicKeysFromFile(f)
		if err != nil {
			return nil, fmt.Errorf("read service account key %s: %w", f, err)
		}
		keys = append(keys, k...)
	}
	getter, err := serviceaccount.StaticPublicKeysGetter(keys)
	if err != nil {
		return nil, fmt.Errorf("service account keys: %w", err)
	}
	lister := tokenGetter{serviceAccounts: inf.Core().V1().ServiceAccounts().Lister(), client: client}
	return serviceaccount.JWTTokenAuthenticator([]string{o.Issuer}, getter, audiences, serviceaccount.NewValidator(lister)), nil
}

// tokenGetter finds what a token is bound to. mco's tokens are bound to
// their ServiceAccount only: mco serves no Pods, Nodes or webhook
// configurations, and no token carries a Secret reference.
type tokenGetter struct {
	serviceAccounts corelisters.ServiceAccountLister
	client          kubernetes.Interface
}

var _ serviceaccount.ServiceAccountTokenGetter = tokenGetter{}

// GetServiceAccount reads the cache, and mco-apiserver itself on a miss,
// as kube-apiserver does: a server just started serves requests before its
// cache has filled, and a token must not be refused (401) meanwhile.
func (g tokenGetter) GetServiceAccount(ctx context.Context, namespace, name string) (*corev1.ServiceAccount, error) {
	if sa, err := g.serviceAccounts.ServiceAccounts(namespace).Get(name); err == nil {
		return sa, nil
	}
	return g.client.CoreV1().ServiceAccounts(namespace).Get(ctx, name, metav1.GetOptions{})
}

func (tokenGetter) GetPod(_ context.Context, _, name string) (*corev1.Pod, error) {
	return nil, apierrors.NewNotFound(corev1.Resource("pods"), name)
}

func (tokenGetter) GetSecret(_ context.Context, _, name string) (*corev1.Secret, error) {
	return nil, apierrors.NewNotFound(corev1.Resource("secrets"), name)
}

func (tokenGetter) GetNode(_ context.Context, name string) (*corev1.Node, error) {
	return nil, apierrors.NewNotFound(corev1.Resource("nodes"), name)
}

func (tokenGetter) GetValidatingWebhookConfiguration(_ context.Context, name string) (*admissionregistrationv1.ValidatingWebhookConfiguration, error) {
	return nil, apierrors.NewNotFound(admissionregistrationv1.Resource("validatingwebhookconfigurations"), name)
}

func (tokenGetter) GetMutatingWebhookConfiguration(_ context.Context, name string) (*admissionregistrationv1.MutatingWebhookConfiguration, error) {
	return nil, apierrors.NewNotFound(admissionregistrationv1.Resource("mutatingwebhookconfigurations"), name)
}
