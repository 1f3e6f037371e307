package clients

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// MemberTimeout bounds each request to a member, so that an unreachable
// one fails in seconds.
const MemberTimeout = 10 * time.Second

// MemberConfig reads a member's kubeconfig file and returns the rest.Config
// of its context (the current context when context is empty).
func MemberConfig(path, context string) (*rest.Config, error) {
	if path == "" {
		return nil, errors.New("no member kubeconfig given: use --cluster-kubeconfig FILE")
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("member kubeconfig %s does not exist", path)
	}
	raw, err := clientcmd.LoadFromFile(path)
	if err != nil {
		return nil, fmt.Errorf("member kubeconfig %s cannot be read: %w", path, err)
	}
	if err := clientcmd.ResolveLocalPaths(raw); err != nil {
		return nil, fmt.Errorf("member kubeconfig %s: %w", path, err)
	}
	if context == "" {
		context = raw.CurrentContext
	}
	if context == "" {
		return nil, fmt.Errorf("member kubeconfig %s has no current-context: choose one with --cluster-context (it has %s)", path, contextNames(raw.Contexts))
	}
	if _, ok := raw.Contexts[context]; !ok {
		return nil, fmt.Errorf("context %q not found in member kubeconfig %s (it has %s)", context, path, contextNames(raw.Contexts))
	}
	cfg, err := clientcmd.NewNonInteractiveClientConfig(*raw, context, &clientcmd.ConfigOverrides{}, nil).ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("context %q of member kubeconfig %s: %w", context, path, err)
	}
	return cfg, nil
}

// contextNames lists a kubeconfig's contexts for messages.
func contextNames[V any](contexts map[string]V) string {
	if len(contexts) == 0 {
		return "no contexts"
	}
	names := make([]string, 0, len(contexts))
	for name := range contexts {
		names = append(names, name)
	}
	sort.Strings(names)
	return "contexts " + strings.Join(names, ", ")
}

// WithMemberTimeout returns a copy of cfg whose requests give up after
// MemberTimeout, unless cfg has a timeout already.
func WithMemberTimeout(cfg *rest.Config) *rest.Config {
	cfg = rest.CopyConfig(cfg)
	if cfg.Timeout == 0 {
		cfg.Timeout = MemberTimeout
	}
	if cfg.QPS == 0 {
		cfg.QPS, cfg.Burst = qps, burst
	}
	return cfg
}
