package clusterstatus

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/mco-org/mco/pkg/member"
)

// reply is how the fake member answers one health path: a status code and
// body, or no answer at all until the caller gives up.
type reply struct {
	code int
	body string
	hang bool
}

func TestProbe(t *testing.T) {
	t.Parallel()
	notFound := reply{code: http.StatusNotFound, body: "404 page not found"}
	tests := []struct {
		name            string
		readyz          reply
		healthz         reply
		down            bool          // nothing listens at the member's address
		deadline        time.Duration // of the caller's context; 0 for none
		wantReachable   bool
		wantHealthy     bool
		wantMsg         string // contained in the message; a healthy probe has none
		wantReadyCalls  int32
		wantHealthCalls int32
	}{
		{
			name:   "A member whose /readyz answers 200 is healthy and /healthz is not asked.",
			readyz: reply{code: http.StatusOK, body: "ok"}, healthz: reply{code: http.StatusInternalServerError},
			wantReachable: true, wantHealthy: true, wantReadyCalls: 1,
		},
		{
			name:   "A member without /readyz falls back to /healthz, and a 200 there is healthy.",
			readyz: notFound, healthz: reply{code: http.StatusOK, body: "ok"},
			wantReachable: true, wantHealthy: true, wantReadyCalls: 1, wantHealthCalls: 1,
		},
		{
			name:   "A member without /readyz whose /healthz answers 500 is reachable but unhealthy.",
			readyz: notFound, healthz: reply{code: http.StatusInternalServerError, body: "etcd failed"},
			wantReachable: true, wantMsg: "/healthz returned 500: etcd failed", wantReadyCalls: 1, wantHealthCalls: 1,
		},
		{
			name:   "A /readyz answering 500 is unhealthy without asking /healthz.",
			readyz: reply{code: http.StatusInternalServerError, body: "informers not synced"}, healthz: reply{code: http.StatusOK},
			wantReachable: true, wantMsg: "/readyz returned 500: informers not synced", wantReadyCalls: 1,
		},
		{
			name:          "A long error body is cut to 200 characters in the message.",
			readyz:        reply{code: http.StatusServiceUnavailable, body: strings.Repeat("x", 300)},
			wantReachable: true, wantMsg: "/readyz returned 503: " + strings.Repeat("x", 200) + "...", wantReadyCalls: 1,
		},
		{
			name:   "A member serving neither path is reachable but unhealthy.",
			readyz: notFound, healthz: notFound,
			wantReachable: true, wantMsg: "neither /readyz nor /healthz is served", wantReadyCalls: 1, wantHealthCalls: 1,
		},
		{
			name: "A member refusing connections is unreachable.",
			down: true, wantMsg: "connection refused",
		},
		{
			name:   "A member that does not answer before the deadline is unreachable and /healthz is not asked.",
			readyz: reply{hang: true}, healthz: reply{code: http.StatusOK}, deadline: 100 * time.Millisecond,
			wantMsg: "context deadline exceeded", wantReadyCalls: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var readyCalls, healthCalls atomic.Int32
			release := make(chan struct{})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var rp reply
				switch r.URL.Path {
				case "/readyz":
					readyCalls.Add(1)
					rp = tt.readyz
				case "/healthz":
					healthCalls.Add(1)
					rp = tt.healthz
				default:
					rp = notFound
				}
				if rp.hang {
					select {
					case <-r.Context().Done():
					case <-release:
					}
					return
				}
				w.WriteHeader(rp.code)
				_, _ = w.Write([]byte(rp.body))
			}))
			t.Cleanup(srv.Close)
			t.Cleanup(func() { close(release) }) // runs before srv.Close
			if tt.down {
				srv.Close()
			}
			ctx := context.Background()
			if tt.deadline > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.deadline)
				defer cancel()
			}
			kube, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL})
			if err != nil {
				t.Fatalf("client: %v", err)
			}

			reachable, healthy, msg := probe(ctx, &member.Clients{Cluster: "member1", Kube: kube})

			if reachable != tt.wantReachable || healthy != tt.wantHealthy {
				t.Errorf("probe = reachable %t, healthy %t (%q); want %t, %t", reachable, healthy, msg, tt.wantReachable, tt.wantHealthy)
			}
			if tt.wantHealthy && msg != "" {
				t.Errorf("message = %q, want none for a healthy member", msg)
			}
			if !strings.Contains(msg, tt.wantMsg) {
				t.Errorf("message = %q, want it to contain %q", msg, tt.wantMsg)
			}
			if got := readyCalls.Load(); got != tt.wantReadyCalls {
				t.Errorf("/readyz called %d times, want %d", got, tt.wantReadyCalls)
			}
			if got := healthCalls.Load(); got != tt.wantHealthCalls {
				t.Errorf("/healthz called %d times, want %d", got, tt.wantHealthCalls)
			}
		})
	}
}
