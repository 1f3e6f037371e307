package member

import (
	"fmt"
	"net/http"
	"net/url"
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
