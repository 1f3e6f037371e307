package clients

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/rest"
)

// Watch notes how requests to one server failed, so that an error coming
// back through a library can be put in words naming that server: "cannot
// reach member at https://...", "member at https://... denied ...".
type Watch struct {
	// Who names the server in messages ("member", "mco").
	Who string
	// URL is the server's address.
	URL string
	// Timeout is the per-request limit, for messages.
	Timeout string

	mu           sync.Mutex
	unreachable  error
	forbidden    bool
	unauthorized bool
}

// Watched returns a copy of cfg whose requests w watches.
func Watched(cfg *rest.Config, who string) (*rest.Config, *Watch) {
	w := &Watch{Who: who, URL: cfg.Host}
	if cfg.Timeout > 0 {
		w.Timeout = cfg.Timeout.String()
	}
	cfg = rest.CopyConfig(cfg)
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return &watchingTransport{next: rt, w: w} })
	return cfg, w
}

type watchingTransport struct {
	next http.RoundTripper
	w    *Watch
}

func (t *watchingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	t.w.mu.Lock()
	defer t.w.mu.Unlock()
	switch {
	case err != nil:
		if req.Context().Err() == nil || errors.Is(req.Context().Err(), context.DeadlineExceeded) {
			t.w.unreachable = err
		}
	case resp.StatusCode == http.StatusForbidden:
		t.w.forbidden = true
	case resp.StatusCode == http.StatusUnauthorized:
		t.w.unauthorized = true
	}
	return resp, err
}

// Explained is an error Explain has put in words; Explain leaves it as it is.
type Explained struct {
	Message string
	Err     error
}

func (e *Explained) Error() string { return e.Message }
func (e *Explained) Unwrap() error { return e.Err }

// Explain rewrites err when it comes from a failed request to w's server:
// unreachable (connection refused, timeout, TLS), 401 or 403. Other errors,
// and any error once ctx is done, are returned unchanged. hint, when set,
// is added to a 403's message.
func (w *Watch) Explain(ctx context.Context, err error, hint string) error {
	var done *Explained
	if err == nil || ctx.Err() != nil || errors.As(err, &done) {
		return err
	}
	w.mu.Lock()
	unreachable, forbidden, unauthorized := w.unreachable, w.forbidden, w.unauthorized
	w.mu.Unlock()
	var status apierrors.APIStatus
	switch {
	case forbidden && apierrors.IsForbidden(err) && errors.As(err, &status):
		msg := fmt.Sprintf("%s at %s denied a permission: %s", w.Who, w.URL, status.Status().Message)
		if hint != "" {
			msg += " (" + hint + ")"
		}
		return &Explained{Message: msg, Err: err}
	case unauthorized && apierrors.IsUnauthorized(err):
		return &Explained{Message: fmt.Sprintf("%s at %s did not accept the kubeconfig's credentials (401 Unauthorized)", w.Who, w.URL), Err: err}
	case unreachable != nil && !isAPIStatus(err):
		return &Explained{Message: fmt.Sprintf("cannot reach %s at %s: %s", w.Who, w.URL, w.cause(err, unreachable)), Err: err}
	}
	return err
}

// cause describes why a request got no answer.
func (w *Watch) cause(err, transport error) string {
	var netErr net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &netErr) && netErr.Timeout() ||
		errors.Is(transport, context.DeadlineExceeded) {
		if w.Timeout != "" {
			return "no answer within " + w.Timeout
		}
		return "no answer in time"
	}
	// The transport's own error, such as "dial tcp 127.0.0.1:1: connect:
	// connection refused", without the method and URL a client adds.
	return transport.Error()
}

func isAPIStatus(err error) bool {
	var status apierrors.APIStatus
	return errors.As(err, &status)
}
