// Package clusterproxy serves clusters/{name}/proxy: it forwards a request
// to the member cluster, impersonating the caller (user, uid, groups and
// extras) with the Cluster's impersonator credentials, never with mco's
// own token for the member.
package clusterproxy

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/httpstream"
	"k8s.io/apimachinery/pkg/util/proxy"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

// SecretGetter reads a secret on mco.
type SecretGetter func(ctx context.Context, namespace, name string) (*corev1.Secret, error)

// REST is the clusters/proxy subresource.
type REST struct {
	clusters   rest.Getter
	secrets    SecretGetter
	transports *transports
}

var _ rest.Connecter = &REST{}

// New serves the proxy of the Clusters in clusters. timeout bounds the
// wait for a member's response headers (watches then stream on).
func New(clusters rest.Getter, secrets SecretGetter, timeout time.Duration) *REST {
	return &REST{clusters: clusters, secrets: secrets, transports: newTransports(timeout)}
}

// New returns empty options: discovery lists the subresource with their
// kind, as kube-apiserver lists nodes/proxy.
func (r *REST) New() runtime.Object { return &clusterv1alpha1.ClusterProxyOptions{} }

// Destroy releases nothing: the Cluster storage owns the store.
func (r *REST) Destroy() {}

// ConnectMethods are the HTTP methods forwarded.
func (r *REST) ConnectMethods() []string {
	return []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}
}

// NewConnectOptions takes the rest of the URL path as options' path.
func (r *REST) NewConnectOptions() (runtime.Object, bool, string) {
	return &clusterv1alpha1.ClusterProxyOptions{}, true, "path"
}

// Connect returns the handler forwarding one request to the member.
func (r *REST) Connect(ctx context.Context, name string, opts runtime.Object, responder rest.Responder) (http.Handler, error) {
	po, ok := opts.(*clusterv1alpha1.ClusterProxyOptions)
	if !ok {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("invalid options object: %T", opts))
	}
	caller, ok := genericapirequest.UserFrom(ctx)
	if !ok || caller.GetName() == "" {
		return nil, apierrors.NewUnauthorized("the cluster proxy needs an authenticated caller")
	}
	obj, err := r.clusters.Get(ctx, name, &metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	cluster := obj.(*clusterv1alpha1.Cluster)
	if err := ready(cluster); err != nil {
		return nil, err
	}
	rt, endpoint, err := r.transportFor(ctx, cluster)
	if err != nil {
		return nil, err
	}
	location := *endpoint
	location.Path = path.Join("/", endpoint.Path, po.Path)
	if strings.HasSuffix(po.Path, "/") && !strings.HasSuffix(location.Path, "/") {
		location.Path += "/"
	}
	h := proxy.NewUpgradeAwareHandler(&location, impersonating(rt, caller), false, false, errorResponder{cluster: name, responder: responder})
	h.UseLocationHost = true
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if httpstream.IsUpgradeRequest(req) {
			responder.Error(apierrors.NewBadRequest("exec, attach and port-forward through the cluster proxy are not supported"))
			return
		}
		h.ServeHTTP(w, withoutCallerCredentials(req))
	}), nil
}

// transportFor reads the Cluster's secrets and returns the transport to
// its member and the member's endpoint.
func (r *REST) transportFor(ctx context.Context, c *clusterv1alpha1.Cluster) (http.RoundTripper, *url.URL, error) {
	if c.Spec.SyncMode != clusterv1alpha1.Push {
		return nil, nil, apierrors.NewServiceUnavailable(fmt.Sprintf("cluster %s is in %s mode; the proxy reaches Push clusters only", c.Name, c.Spec.SyncMode))
	}
	if c.Spec.SecretRef == nil || c.Spec.ImpersonatorSecretRef == nil {
		return nil, nil, apierrors.NewServiceUnavailable(fmt.Sprintf("cluster %s has no secretRef or impersonatorSecretRef; join it again to create them", c.Name))
	}
	secret, err := r.secret(ctx, c, c.Spec.SecretRef)
	if err != nil {
		return nil, nil, err
	}
	impersonator, err := r.secret(ctx, c, c.Spec.ImpersonatorSecretRef)
	if err != nil {
		return nil, nil, err
	}
	return r.transports.get(c, secret, impersonator)
}

func (r *REST) secret(ctx context.Context, c *clusterv1alpha1.Cluster, ref *clusterv1alpha1.LocalSecretReference) (*corev1.Secret, error) {
	s, err := r.secrets(ctx, ref.Namespace, ref.Name)
	if apierrors.IsNotFound(err) {
		return nil, apierrors.NewServiceUnavailable(fmt.Sprintf("secret %s/%s of cluster %s does not exist", ref.Namespace, ref.Name, c.Name))
	}
	if err != nil {
		return nil, apierrors.NewInternalError(fmt.Errorf("read secret %s/%s of cluster %s: %w", ref.Namespace, ref.Name, c.Name, err))
	}
	return s, nil
}

// ready refuses a Cluster that is not Ready, with the condition's reason.
func ready(c *clusterv1alpha1.Cluster) error {
	cond := meta.FindStatusCondition(c.Status.Conditions, clusterv1alpha1.ClusterConditionReady)
	switch {
	case cond == nil:
		return apierrors.NewServiceUnavailable(fmt.Sprintf("cluster %s is not ready: its status has not been collected yet", c.Name))
	case cond.Status != metav1.ConditionTrue:
		return apierrors.NewServiceUnavailable(fmt.Sprintf("cluster %s is not ready: %s: %s", c.Name, cond.Reason, cond.Message))
	}
	return nil
}

// withoutCallerCredentials drops what the caller sent to authenticate to
// mco or to ask mco for impersonation: the member gets the impersonator's
// token and the impersonation headers the proxy sets, nothing else.
func withoutCallerCredentials(req *http.Request) *http.Request {
	out := req.Clone(req.Context())
	out.Header.Del("Authorization")
	out.Header.Del("Cookie")
	for k := range out.Header {
		if strings.HasPrefix(strings.ToLower(k), "impersonate-") {
			out.Header.Del(k)
		}
	}
	return out
}

// errorResponder answers a failed forward with 503 naming the cluster.
type errorResponder struct {
	cluster   string
	responder rest.Responder
}

func (e errorResponder) Error(_ http.ResponseWriter, _ *http.Request, err error) {
	if apierrors.IsBadRequest(err) {
		e.responder.Error(err)
		return
	}
	e.responder.Error(apierrors.NewServiceUnavailable(fmt.Sprintf("cluster %s did not answer: %v", e.cluster, err)))
}
