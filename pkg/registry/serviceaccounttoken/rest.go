// Package serviceaccounttoken serves serviceaccounts/{name}/token
// (authentication.k8s.io/v1 TokenRequest), as `kubectl create token` uses
// it: a bound, expiring JWT for a ServiceAccount, signed with Kubernetes'
// own token generator.
package serviceaccounttoken

import (
	"context"
	"fmt"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/kubernetes/pkg/serviceaccount"
)

// Token lifetimes, as kube-apiserver bounds them.
const (
	// MinExpiration is the shortest lifetime a TokenRequest may ask for.
	MinExpiration = 10 * time.Minute
	// DefaultExpiration is the lifetime of a token that asks for none.
	DefaultExpiration = time.Hour
)

// GetServiceAccount reads a ServiceAccount of the request's namespace.
type GetServiceAccount func(ctx context.Context, name string) (*corev1.ServiceAccount, error)

// REST creates tokens for ServiceAccounts.
type REST struct {
	get       GetServiceAccount
	generator serviceaccount.TokenGenerator
	// audiences are those of a request that names none: the API's own.
	audiences []string
	// maxExpiration caps the lifetime (0: no cap).
	maxExpiration time.Duration
}

var (
	_ rest.NamedCreater             = &REST{}
	_ rest.GroupVersionKindProvider = &REST{}
)

// New returns the token subresource.
func New(get GetServiceAccount, generator serviceaccount.TokenGenerator, audiences []string, maxExpiration time.Duration) *REST {
	return &REST{get: get, generator: generator, audiences: audiences, maxExpiration: maxExpiration}
}

// New returns an empty TokenRequest.
func (r *REST) New() runtime.Object { return &authenticationv1.TokenRequest{} }

// Destroy is a no-op: the ServiceAccount resource owns the storage.
func (r *REST) Destroy() {}

// GroupVersionKind answers with authentication.k8s.io/v1 TokenRequest.
func (r *REST) GroupVersionKind(schema.GroupVersion) schema.GroupVersionKind {
	return authenticationv1.SchemeGroupVersion.WithKind("TokenRequest")
}

// Create issues a token for the ServiceAccount name.
func (r *REST) Create(ctx context.Context, name string, obj runtime.Object, createValidation rest.ValidateObjectFunc, opts *metav1.CreateOptions) (runtime.Object, error) {
	req, ok := obj.(*authenticationv1.TokenRequest)
	if !ok {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("not a TokenRequest: %T", obj))
	}
	if errs := r.validate(req); len(errs) > 0 {
		return nil, apierrors.NewInvalid(authenticationv1.SchemeGroupVersion.WithKind("TokenRequest").GroupKind(), name, errs)
	}
	if createValidation != nil {
		if err := createValidation(ctx, obj.DeepCopyObject()); err != nil {
			return nil, err
		}
	}
	sa, err := r.get(ctx, name)
	if err != nil {
		return nil, err
	}
	out := req.DeepCopy()
	if len(out.Spec.Audiences) == 0 {
		out.Spec.Audiences = r.audiences
	}
	if out.Spec.ExpirationSeconds == nil {
		seconds := int64(DefaultExpiration / time.Second)
		out.Spec.ExpirationSeconds = &seconds
	}
	if r.maxExpiration > 0 && time.Duration(*out.Spec.ExpirationSeconds)*time.Second > r.maxExpiration {
		seconds := int64(r.maxExpiration / time.Second)
		out.Spec.ExpirationSeconds = &seconds
	}
	// The claims name the ServiceAccount by namespace, name and uid: a
	// token outlives neither its expiry nor its ServiceAccount.
	subject := core.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: sa.Namespace, Name: sa.Name, UID: sa.UID}}
	claims, private, err := serviceaccount.Claims(subject, nil, nil, nil, nil, nil, *out.Spec.ExpirationSeconds, 0, out.Spec.Audiences, nil)
	if err != nil {
		return nil, apierrors.NewInternalError(fmt.Errorf("token claims: %w", err))
	}
	token, err := r.generator.GenerateToken(ctx, claims, private)
	if err != nil {
		return nil, apierrors.NewInternalError(fmt.Errorf("sign token: %w", err))
	}
	ns, _ := genericapirequest.NamespaceFrom(ctx)
	out.ObjectMeta = metav1.ObjectMeta{Name: name, Namespace: ns, CreationTimestamp: metav1.Now()}
	out.Status = authenticationv1.TokenRequestStatus{Token: token, ExpirationTimestamp: metav1.NewTime(claims.Expiry.Time())}
	return out, nil
}

// validate checks a TokenRequest as kube-apiserver does: an expiration of
// at least ten minutes and under 2^32 seconds; bound objects are refused,
// mco has no Pods or Nodes to bind to.
func (r *REST) validate(req *authenticationv1.TokenRequest) field.ErrorList {
	var errs field.ErrorList
	spec := field.NewPath("spec")
	if e := req.Spec.ExpirationSeconds; e != nil {
		if time.Duration(*e)*time.Second < MinExpiration {
			errs = append(errs, field.Invalid(spec.Child("expirationSeconds"), *e, "may not specify a duration less than 10 minutes"))
		}
		if *e > 1<<32 {
			errs = append(errs, field.Invalid(spec.Child("expirationSeconds"), *e, "may not specify a duration larger than 2^32 seconds"))
		}
	}
	if req.Spec.BoundObjectRef != nil {
		errs = append(errs, field.Forbidden(spec.Child("boundObjectRef"), "mco-apiserver has no Pods, Secrets or Nodes to bind a token to"))
	}
	return errs
}
