package dashboard

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// The dashboard acts with the user's own credentials, so no other web page
// may drive it: every request must name the dashboard's own host (against
// DNS rebinding) and carry the session token, first in the URL printed at
// start and then in a cookie; a state-changing request must also come
// from the dashboard's own origin.
const (
	tokenParam  = "token"
	cookieName  = "mco-dashboard-session"
	tokenLength = 32
)

// newToken returns a random session token, URL-safe.
func newToken() (string, error) {
	b := make([]byte, tokenLength)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("session token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// guard wraps the dashboard's handler with its checks.
type guard struct {
	token string
	// hosts are the Host header values accepted: the address served, as
	// 127.0.0.1:PORT and localhost:PORT.
	hosts map[string]bool
	// origins are the Origin values accepted on state-changing requests.
	origins map[string]bool
	// cookie is the session cookie's name; it carries the port, as
	// browsers share cookies between the ports of a host, and two
	// dashboards (two kubeconfigs) may run side by side.
	cookie string
	next   http.Handler
}

// newGuard accepts requests for the loopback address addr (host:port).
func newGuard(token, addr string, next http.Handler) *guard {
	_, port, _ := net.SplitHostPort(addr)
	g := &guard{token: token, hosts: map[string]bool{}, origins: map[string]bool{}, next: next, cookie: cookieName + "-" + port}
	for _, h := range []string{"127.0.0.1", "localhost", "[::1]"} {
		g.hosts[h+":"+port] = true
		g.origins["http://"+h+":"+port] = true
	}
	return g
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !g.hosts[strings.ToLower(r.Host)] {
		http.Error(w, "unexpected Host header: the dashboard answers only at the address it printed", http.StatusForbidden)
		return
	}
	if t := r.URL.Query().Get(tokenParam); t != "" {
		if !g.valid(t) {
			http.Error(w, "wrong session token", http.StatusForbidden)
			return
		}
		// Keep it in a cookie and drop it from the address bar.
		http.SetCookie(w, &http.Cookie{Name: g.cookie, Value: t, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		http.Redirect(w, r, withoutToken(r.URL), http.StatusSeeOther)
		return
	}
	c, err := r.Cookie(g.cookie)
	if err != nil || !g.valid(c.Value) {
		http.Error(w, "no session: open the URL kubectl mco dashboard printed", http.StatusUnauthorized)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead && !g.origins[r.Header.Get("Origin")] {
		http.Error(w, "cross-origin request refused", http.StatusForbidden)
		return
	}
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	// same-origin, not no-referrer: with no-referrer a browser sends
	// "Origin: null" on the dashboard's own forms, which the check refuses.
	w.Header().Set("Referrer-Policy", "same-origin")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'; form-action 'self'")
	g.next.ServeHTTP(w, r)
}

func (g *guard) valid(t string) bool {
	return subtle.ConstantTimeCompare([]byte(t), []byte(g.token)) == 1
}

// withoutToken is the request's path and query without the token.
func withoutToken(u *url.URL) string {
	q := u.Query()
	q.Del(tokenParam)
	out := u.Path
	if out == "" {
		out = "/"
	}
	if enc := q.Encode(); enc != "" {
		out += "?" + enc
	}
	return out
}
