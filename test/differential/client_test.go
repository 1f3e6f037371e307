package differential

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"golang.org/x/net/http2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// testNamespace holds every namespaced object on both servers.
const testNamespace = "diff"

// server is one apiserver under comparison.
type server struct {
	name   string
	client dynamic.Interface
}

// newServer builds a client of cfg whose warnings and response codes are
// recorded per request, in the recorder the request's context carries.
func newServer(name string, cfg *rest.Config) (*server, error) {
	cfg = rest.CopyConfig(cfg)
	cfg.QPS = -1 // no client-side throttling
	cfg.WarningHandlerWithContext = recordWarnings{}
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return recordCodes{rt} })
	c, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return &server{name: name, client: c}, nil
}

// recorder collects what one request's responses said besides the body.
type recorder struct {
	mu       sync.Mutex
	code     int
	warnings []string
}

type recorderKey struct{}

func recorderFrom(ctx context.Context) *recorder {
	r, _ := ctx.Value(recorderKey{}).(*recorder)
	return r
}

type recordWarnings struct{}

func (recordWarnings) HandleWarningHeaderWithContext(ctx context.Context, _ int, _ string, text string) {
	if r := recorderFrom(ctx); r != nil {
		r.mu.Lock()
		r.warnings = append(r.warnings, text)
		r.mu.Unlock()
	}
}

type recordCodes struct{ rt http.RoundTripper }

func (t recordCodes) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.rt.RoundTrip(req)
	if r := recorderFrom(req.Context()); r != nil && err == nil {
		r.mu.Lock()
		r.code = resp.StatusCode
		r.mu.Unlock()
	}
	return resp, err
}

var dryRunAll = []string{metav1.DryRunAll}

// create sends obj as a create, a dry run when dryRun.
func (s *server) create(ctx context.Context, k Kind, obj map[string]any, dryRun bool) (Outcome, error) {
	opts := metav1.CreateOptions{}
	if dryRun {
		opts.DryRun = dryRunAll
	}
	return s.do(ctx, func(ctx context.Context) (*unstructured.Unstructured, error) {
		u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}
		return s.resource(k).Create(ctx, u, opts)
	})
}

// update sends obj as a dry-run update.
func (s *server) update(ctx context.Context, k Kind, obj map[string]any) (Outcome, error) {
	return s.do(ctx, func(ctx context.Context) (*unstructured.Unstructured, error) {
		u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}
		return s.resource(k).Update(ctx, u, metav1.UpdateOptions{DryRun: dryRunAll})
	})
}

// get reads the stored object of kind k named name.
func (s *server) get(ctx context.Context, k Kind, name string) (map[string]any, error) {
	u, err := s.resource(k).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("get %s %s from %s: %w", k.GVK.Kind, name, s.name, err)
	}
	return u.Object, nil
}

func (s *server) resource(k Kind) dynamic.ResourceInterface {
	if k.Namespaced {
		return s.client.Resource(k.GVR()).Namespace(testNamespace)
	}
	return s.client.Resource(k.GVR())
}

// do runs one request and turns its answer into an Outcome. Only an
// answer that is no API status (the server unreachable) is an error, but
// a reset request, which is compared as an outcome of its own.
func (s *server) do(ctx context.Context, call func(context.Context) (*unstructured.Unstructured, error)) (Outcome, error) {
	r := &recorder{}
	obj, err := call(context.WithValue(ctx, recorderKey{}, r))
	r.mu.Lock()
	o := Outcome{Code: r.code, Warnings: r.warnings}
	r.mu.Unlock()
	if err == nil {
		o.Object = obj.Object
		return o, nil
	}
	if reset(err) {
		o.Code, o.Reason, o.Message = 0, resetReason, err.Error()
		return o, nil
	}
	var st apierrors.APIStatus
	if !errors.As(err, &st) {
		return o, err
	}
	status := st.Status()
	if o.Code == 0 || o.Code < 300 {
		o.Code = int(status.Code)
	}
	o.Reason, o.Message = string(status.Reason), status.Message
	if status.Details != nil {
		for _, c := range status.Details.Causes {
			o.Causes = append(o.Causes, Cause{Field: c.Field, Type: string(c.Type)})
		}
	}
	return o, nil
}

// resetReason stands for the reason of a request the server reset.
const resetReason = "RequestReset"

// reset reports whether the server reset the request's stream with an
// internal error: what an HTTP/2 client gets when the handler panicked.
// The server itself is still up.
func reset(err error) bool {
	var se http2.StreamError
	return errors.As(err, &se) && se.Code == http2.ErrCodeInternal
}
