package dashboard

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestGuard(t *testing.T) {
	t.Parallel()
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("page")) })
	g := newGuard("s3cret", "127.0.0.1:8765", ok)
	tests := []struct {
		name, method, target, host, cookie, origin string
		wantCode                                   int
		wantLocation                               string
	}{
		{name: "no session", method: "GET", target: "/clusters", host: "127.0.0.1:8765", wantCode: 401},
		{name: "token in the URL becomes a cookie", method: "GET", target: "/workloads?token=s3cret&namespace=a", host: "127.0.0.1:8765",
			wantCode: 303, wantLocation: "/workloads?namespace=a"},
		{name: "wrong token", method: "GET", target: "/?token=guess", host: "127.0.0.1:8765", wantCode: 403},
		{name: "cookie", method: "GET", target: "/clusters", host: "127.0.0.1:8765", cookie: "s3cret", wantCode: 200},
		{name: "localhost names the same server", method: "GET", target: "/clusters", host: "localhost:8765", cookie: "s3cret", wantCode: 200},
		{name: "foreign Host (DNS rebinding)", method: "GET", target: "/clusters", host: "evil.example:8765", cookie: "s3cret", wantCode: 403},
		{name: "another port", method: "GET", target: "/clusters", host: "127.0.0.1:9999", cookie: "s3cret", wantCode: 403},
		{name: "wrong cookie", method: "GET", target: "/clusters", host: "127.0.0.1:8765", cookie: "nope", wantCode: 401},
		{name: "POST without Origin", method: "POST", target: "/rollouts/x/pause", host: "127.0.0.1:8765", cookie: "s3cret", wantCode: 403},
		{name: "POST from another origin", method: "POST", target: "/rollouts/x/pause", host: "127.0.0.1:8765", cookie: "s3cret",
			origin: "http://evil.example", wantCode: 403},
		{name: "POST from the dashboard", method: "POST", target: "/rollouts/x/pause", host: "127.0.0.1:8765", cookie: "s3cret",
			origin: "http://127.0.0.1:8765", wantCode: 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest(tt.method, tt.target, nil)
			r.Host = tt.host
			if tt.cookie != "" {
				r.AddCookie(&http.Cookie{Name: cookieName + "-8765", Value: tt.cookie})
			}
			if tt.origin != "" {
				r.Header.Set("Origin", tt.origin)
			}
			w := httptest.NewRecorder()
			g.ServeHTTP(w, r)
			if w.Code != tt.wantCode {
				t.Fatalf("code %d, want %d: %s", w.Code, tt.wantCode, w.Body.String())
			}
			if tt.wantLocation != "" {
				if got := w.Header().Get("Location"); got != tt.wantLocation {
					t.Errorf("Location %q, want %q", got, tt.wantLocation)
				}
				c := w.Header().Get("Set-Cookie")
				if !strings.Contains(c, cookieName+"-8765=s3cret") || !strings.Contains(c, "HttpOnly") || !strings.Contains(c, "SameSite=Strict") {
					t.Errorf("Set-Cookie %q", c)
				}
			}
			if tt.wantCode == 200 && w.Header().Get("X-Frame-Options") != "DENY" {
				t.Error("no X-Frame-Options")
			}
		})
	}
	if a, b := mustToken(t), mustToken(t); a == b || len(a) < 40 {
		t.Errorf("tokens %q %q", a, b)
	}
}

func mustToken(t *testing.T) string {
	t.Helper()
	tok, err := newToken()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}
