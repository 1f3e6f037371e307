package member

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// parseProxy returns a proxy function for rest.Config from a URL.
func parseProxy(raw string) (func(*http.Request) (*url.URL, error), error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("parse proxy URL: %w", err)
	}
	switch u.Scheme {
	case "http", "https", "socks5":
	default:
		return nil, fmt.Errorf("proxy URL scheme %q is not http, https or socks5", u.Scheme)
	}
	return http.ProxyURL(u), nil
}

// proxyHeaders are spec.proxyHeader as HTTP headers: each key canonical,
// each value split at commas into several values, as Karmada reads them.
func proxyHeaders(spec map[string]string) http.Header {
	h := http.Header{}
	for k, v := range spec {
		for _, part := range strings.Split(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				h.Add(k, part)
			}
		}
	}
	return h
}

// withProxyHeaders sends headers with the CONNECT of every connection
// through the proxy. The transport it sets them on is the config's own: a
// config with a proxy gets a transport client-go does not share.
func withProxyHeaders(headers http.Header) func(http.RoundTripper) http.RoundTripper {
	return func(rt http.RoundTripper) http.RoundTripper {
		if t, ok := rt.(*http.Transport); ok {
			t.ProxyConnectHeader = headers.Clone()
		}
		return rt
	}
}
