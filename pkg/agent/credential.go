package agent

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// KubeconfigKey is the key of the agent's kubeconfig for mco in its
// credential Secret.
const KubeconfigKey = "kubeconfig"

// credentialStore is where the agent's kubeconfig for mco is kept: a file,
// or a Secret in the member. The agent writes its renewed token back.
type credentialStore struct {
	file string
	// secret is NAMESPACE/NAME of a Secret in the member, read and
	// written through member.
	secret string
	member kubernetes.Interface
}

func (s credentialStore) String() string {
	if s.file != "" {
		return "file " + s.file
	}
	return "secret " + s.secret + " in the member"
}

func (s credentialStore) secretRef() (string, string, error) {
	ns, name, ok := strings.Cut(s.secret, "/")
	if !ok || ns == "" || name == "" {
		return "", "", fmt.Errorf("--mco-kubeconfig-secret %q: want NAMESPACE/NAME", s.secret)
	}
	return ns, name, nil
}

// load reads the kubeconfig.
func (s credentialStore) load(ctx context.Context) ([]byte, error) {
	if s.file != "" {
		data, err := os.ReadFile(s.file)
		if err != nil {
			return nil, fmt.Errorf("read the credential for mco: %w", err)
		}
		return data, nil
	}
	ns, name, err := s.secretRef()
	if err != nil {
		return nil, err
	}
	sec, err := s.member.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("read the credential for mco (secret %s/%s): %w", ns, name, err)
	}
	data := sec.Data[KubeconfigKey]
	if len(data) == 0 {
		return nil, fmt.Errorf("secret %s/%s has no %q", ns, name, KubeconfigKey)
	}
	return data, nil
}

// store writes the kubeconfig back.
func (s credentialStore) store(ctx context.Context, data []byte) error {
	if s.file != "" {
		tmp := s.file + ".new"
		if err := os.WriteFile(tmp, data, 0o600); err != nil {
			return fmt.Errorf("write the credential for mco: %w", err)
		}
		return os.Rename(tmp, s.file)
	}
	ns, name, err := s.secretRef()
	if err != nil {
		return err
	}
	sec, err := s.member.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("read secret %s/%s: %w", ns, name, err)
	}
	if sec.Data == nil {
		sec.Data = map[string][]byte{}
	}
	sec.Data[KubeconfigKey] = data
	if _, err := s.member.CoreV1().Secrets(ns).Update(ctx, sec, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("write the credential for mco (secret %s/%s): %w", ns, name, err)
	}
	return nil
}

// credential is the agent's current token for mco, which every request
// carries and which rotation replaces.
type credential struct {
	mu    sync.RWMutex
	token string
	// raw is the kubeconfig the token came in, rewritten with each new one.
	raw []byte
}

func (c *credential) get() (token string, raw []byte) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.token, c.raw
}

func (c *credential) set(token string, raw []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.token, c.raw = token, raw
}

// mcoConfig turns the kubeconfig into the client configuration of mco
// whose requests carry cred's current token.
func mcoConfig(raw []byte, cred *credential) (*rest.Config, error) {
	cfg, err := clientcmd.RESTConfigFromKubeConfig(raw)
	if err != nil {
		return nil, fmt.Errorf("the credential for mco is no kubeconfig: %w", err)
	}
	if cfg.BearerToken == "" {
		return nil, fmt.Errorf("the credential for mco holds no token")
	}
	cred.set(cfg.BearerToken, raw)
	cfg.BearerToken, cfg.BearerTokenFile = "", ""
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return &bearer{next: rt, cred: cred} })
	return cfg, nil
}

// withToken returns the kubeconfig raw with its token replaced.
func withToken(raw []byte, token string) ([]byte, error) {
	cfg, err := clientcmd.Load(raw)
	if err != nil {
		return nil, err
	}
	ctx := cfg.Contexts[cfg.CurrentContext]
	if ctx == nil || cfg.AuthInfos[ctx.AuthInfo] == nil {
		return nil, fmt.Errorf("the credential for mco has no current user")
	}
	cfg.AuthInfos[ctx.AuthInfo].Token = token
	return clientcmd.Write(*cfg)
}

type bearer struct {
	next http.RoundTripper
	cred *credential
}

func (b *bearer) RoundTrip(req *http.Request) (*http.Response, error) {
	token, _ := b.cred.get()
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+token)
	return b.next.RoundTrip(req)
}
