package clusterproxy

import (
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/transport"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/member"
)

// transports keeps one connection pool per Cluster, rebuilt when its
// endpoint or credentials change.
type transports struct {
	timeout time.Duration
	mu      sync.Mutex
	byName  map[string]*memberTransport
}

type memberTransport struct {
	fingerprint string
	endpoint    *url.URL
	// rt authenticates as the impersonator; impersonating adds the caller.
	rt http.RoundTripper
}

func newTransports(timeout time.Duration) *transports {
	return &transports{timeout: timeout, byName: map[string]*memberTransport{}}
}

func (t *transports) get(c *clusterv1alpha1.Cluster, secret, impersonator *corev1.Secret) (http.RoundTripper, *url.URL, error) {
	fp := member.ImpersonatorFingerprint(c, secret, impersonator)
	t.mu.Lock()
	defer t.mu.Unlock()
	if m, ok := t.byName[c.Name]; ok && m.fingerprint == fp {
		return m.rt, m.endpoint, nil
	}
	cfg, err := member.ImpersonatorConfig(c, secret, impersonator)
	if err != nil {
		return nil, nil, apierrors.NewServiceUnavailable(err.Error())
	}
	endpoint, err := url.Parse(cfg.Host)
	if err != nil {
		return nil, nil, apierrors.NewServiceUnavailable(fmt.Sprintf("cluster %s spec.apiEndpoint: %v", c.Name, err))
	}
	tlsConfig, err := rest.TLSConfigFor(cfg)
	if err != nil {
		return nil, nil, apierrors.NewServiceUnavailable(fmt.Sprintf("cluster %s TLS: %v", c.Name, err))
	}
	base := utilnet.SetTransportDefaults(&http.Transport{
		TLSClientConfig:       tlsConfig,
		ResponseHeaderTimeout: t.timeout,
		Proxy:                 cfg.Proxy,
	})
	rt, err := rest.HTTPWrappersForConfig(cfg, base)
	if err != nil {
		return nil, nil, apierrors.NewServiceUnavailable(fmt.Sprintf("cluster %s credentials: %v", c.Name, err))
	}
	if old, ok := t.byName[c.Name]; ok {
		utilnet.CloseIdleConnectionsFor(old.rt)
	}
	t.byName[c.Name] = &memberTransport{fingerprint: fp, endpoint: endpoint, rt: rt}
	return rt, endpoint, nil
}

// impersonating sets the caller's identity on every request.
func impersonating(rt http.RoundTripper, caller user.Info) http.RoundTripper {
	return transport.NewImpersonatingRoundTripper(transport.ImpersonationConfig{
		UserName: caller.GetName(),
		UID:      caller.GetUID(),
		Groups:   caller.GetGroups(),
		Extra:    caller.GetExtra(),
	}, rt)
}
