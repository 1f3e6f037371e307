// Package webhook calls the interpreter webhooks of
// ResourceInterpreterWebhookConfigurations: it picks the webhook that
// answers an operation for a kind, posts it a ResourceInterpreterContext
// and checks the answer.
package webhook

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
)

// defaultTimeout bounds a call when the webhook sets no timeoutSeconds.
const defaultTimeout = 10 * time.Second

// Hook is one webhook, ready to call.
type Hook struct {
	// Name is "<configuration>/<webhook>", the order hooks are tried in.
	Name    string
	url     string
	service *configv1alpha1.ResourceInterpreterWebhook
	rules   []configv1alpha1.RuleWithOperations
	timeout time.Duration
	client  *http.Client
}

// Set is the webhooks of every configuration. The zero Set and nil have
// none. It is safe for concurrent use and never changed once built.
type Set struct {
	hooks []*Hook
	// fingerprint is what a change of the set is seen by.
	fingerprint string
}

// NewSet builds the hooks of configurations, ordered by configuration
// and webhook name (Karmada calls the first that matches). A webhook whose
// caBundle does not parse is left out and reported. clients reuses the
// HTTP clients of an earlier set, keyed by CA bundle, so that connections
// survive a reload; it is filled with those the set uses.
func NewSet(configurations []*configv1alpha1.ResourceInterpreterWebhookConfiguration, clients map[string]*http.Client) (*Set, []error) {
	s := &Set{}
	var errs []error
	for _, c := range configurations {
		for i := range c.Webhooks {
			w := &c.Webhooks[i]
			h := &Hook{Name: c.Name + "/" + w.Name, rules: w.Rules, timeout: defaultTimeout}
			if w.TimeoutSeconds != nil {
				h.timeout = time.Duration(*w.TimeoutSeconds) * time.Second
			}
			switch {
			case w.ClientConfig.URL != nil:
				client, err := clientFor(w.ClientConfig.CABundle, clients)
				if err != nil {
					errs = append(errs, fmt.Errorf("interpreter webhook %s: %w", h.Name, err))
					continue
				}
				h.url, h.client = *w.ClientConfig.URL, client
			case w.ClientConfig.Service != nil:
				h.service = w
			default:
				errs = append(errs, fmt.Errorf("interpreter webhook %s: clientConfig has neither url nor service", h.Name))
				continue
			}
			s.hooks = append(s.hooks, h)
			s.fingerprint += fmt.Sprintf("%s|%s|%d|%x|%v\x00", h.Name, h.url, h.timeout, w.ClientConfig.CABundle, w.Rules)
		}
	}
	sort.SliceStable(s.hooks, func(i, j int) bool { return s.hooks[i].Name < s.hooks[j].Name })
	return s, errs
}

// clientFor returns the client trusting caBundle (the system's roots when
// empty), made once per bundle.
func clientFor(caBundle []byte, clients map[string]*http.Client) (*http.Client, error) {
	key := string(caBundle)
	if c, ok := clients[key]; ok {
		return c, nil
	}
	tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12}
	if len(caBundle) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(caBundle) {
			return nil, fmt.Errorf("clientConfig.caBundle holds no PEM certificate")
		}
		tlsConfig.RootCAs = pool
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.TLSClientConfig = tlsConfig
	c := &http.Client{Transport: transport}
	clients[key] = c
	return c, nil
}

// Hook returns the webhook that answers op for kind, or nil.
func (s *Set) Hook(kind schema.GroupVersionKind, op configv1alpha1.InterpreterOperation) *Hook {
	if s == nil {
		return nil
	}
	for _, h := range s.hooks {
		if h.answers(kind, op) {
			return h
		}
	}
	return nil
}

// Fingerprint changes whenever what the set would call changes.
func (s *Set) Fingerprint() string {
	if s == nil {
		return ""
	}
	return s.fingerprint
}

// Kinds tells whether any webhook could answer for kind, whatever the
// operation; listeners use it to interpret such objects again.
func (s *Set) Kinds(kind schema.GroupVersionKind) bool {
	if s == nil {
		return false
	}
	for _, h := range s.hooks {
		for _, r := range h.rules {
			if matches(r.APIGroups, kind.Group) && matches(r.APIVersions, kind.Version) && matches(r.Kinds, kind.Kind) {
				return true
			}
		}
	}
	return false
}

// answers tells whether a rule of h names op for kind. InterpretComponent
// must be named: "*" does not ask it, since it takes the place of
// InterpretReplica and webhooks written for Karmada's defaults (where
// components are off) do not answer it.
func (h *Hook) answers(kind schema.GroupVersionKind, op configv1alpha1.InterpreterOperation) bool {
	all := op != configv1alpha1.InterpreterOperationInterpretComponent
	for _, r := range h.rules {
		if (all && slices.Contains(r.Operations, configv1alpha1.InterpreterOperationAll) || slices.Contains(r.Operations, op)) &&
			matches(r.APIGroups, kind.Group) && matches(r.APIVersions, kind.Version) && matches(r.Kinds, kind.Kind) {
			return true
		}
	}
	return false
}

// matches tells whether a rule's list holds value or "*".
func matches(list []string, value string) bool {
	return slices.Contains(list, "*") || slices.Contains(list, value)
}
