// Package template knows which resource templates mco-apiserver serves and
// keeps an informer cache of each, shared by the controllers that read
// templates (detector, binding, status).
package template

import (
	"context"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	"github.com/mco-org/mco/pkg/apis/reserved"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// Key names one template.
type Key struct {
	GVK             schema.GroupVersionKind
	Namespace, Name string
}

func (k Key) String() string {
	n := k.Name
	if k.Namespace != "" {
		n = k.Namespace + "/" + n
	}
	return k.GVK.Kind + " " + n
}

// KeyOfRef returns the key of the template a binding references.
func KeyOfRef(r workv1alpha2.ObjectReference) Key {
	gv, _ := schema.ParseGroupVersion(r.APIVersion)
	return Key{GVK: gv.WithKind(r.Kind), Namespace: r.Namespace, Name: r.Name}
}

// KeyOf returns the key of a template object.
func KeyOf(obj *unstructured.Unstructured) Key {
	return Key{GVK: obj.GroupVersionKind(), Namespace: obj.GetNamespace(), Name: obj.GetName()}
}

// Resource is one kind of template.
type Resource struct {
	GVR        schema.GroupVersionResource
	GVK        schema.GroupVersionKind
	Namespaced bool
}

// notTemplates are served resources that are never propagated as templates:
// mco's own API, and bookkeeping kinds of the control plane itself.
var notTemplates = map[schema.GroupResource]bool{
	{Resource: "events"}:                               true,
	{Resource: "namespaces"}:                           true,
	{Group: "events.k8s.io", Resource: "events"}:       true,
	{Group: "coordination.k8s.io", Resource: "leases"}: true,
	// EndpointSlices on mco are those collected from the members for
	// services across clusters: a policy selecting them by kind must
	// never send one back out.
	{Group: "discovery.k8s.io", Resource: "endpointslices"}: true,
}

// ownTemplates are mco's own kinds that are templates all the same: an
// Addon is placed like any template, and the binding controller turns it
// into the objects its chart renders for each cluster.
var ownTemplates = map[schema.GroupResource]bool{
	{Group: addonsv1alpha1.GroupName, Resource: "addons"}: true,
}

// Excluded tells whether a served resource is never a template, whatever
// its verbs: a subresource, mco's own API (a group package reserved names:
// Karmada's groups that mco serves or keeps, and mco's domain) but for the
// kinds that are templates, or the control plane's bookkeeping. Karmada's
// other groups hold templates: a Karmada object of operator.karmada.io
// propagates like any custom resource.
func Excluded(gr schema.GroupResource) bool {
	if ownTemplates[gr] {
		return false
	}
	return strings.Contains(gr.Resource, "/") || reserved.Reason(gr.Group) != "" || notTemplates[gr]
}

// IsAddon tells whether a template is an Addon.
func IsAddon(gvk schema.GroupVersionKind) bool { return addonsv1alpha1.Is(gvk) }

// isTemplate tells whether a served resource is a template kind.
func isTemplate(gr schema.GroupResource, verbs []string) bool {
	if Excluded(gr) {
		return false
	}
	need := map[string]bool{"get": false, "list": false, "watch": false, "update": false}
	for _, v := range verbs {
		if _, ok := need[v]; ok {
			need[v] = true
		}
	}
	for _, ok := range need {
		if !ok {
			return false
		}
	}
	return true
}

// GetFresh returns a template from the cache unless the cache holds
// another version than resourceVersion (the one a binding recorded, which
// leaves out mco's own status writes): then the cache may lag behind a
// write it has not seen yet, and the template is read from the server. An
// empty resourceVersion takes the cache's.
func (r *Resources) GetFresh(ctx context.Context, client dynamic.Interface, k Key, resourceVersion string) (*unstructured.Unstructured, error) {
	cached, err := r.Get(k)
	if err != nil && !apierrors.IsNotFound(err) {
		return nil, err
	}
	if resourceVersion == "" || (err == nil && r.EffectiveResourceVersion(cached) == resourceVersion) {
		return cached, err
	}
	x, ok := r.ByGVK(k.GVK)
	if !ok {
		return nil, r.unknown(k)
	}
	live, err := client.Resource(x.GVR).Namespace(k.Namespace).Get(ctx, k.Name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("get %s: %w", k, err)
	}
	return live, nil
}

// EffectiveResourceVersion is the resourceVersion of the template's last
// change that matters to propagation: mco's own status writes on it are
// passed over.
func (r *Resources) EffectiveResourceVersion(obj metav1.Object) string {
	return r.statusWrites.effective(obj.GetUID(), obj.GetResourceVersion())
}

// RecordStatusWrite notes that mco's status write took template uid from
// resourceVersion before to after.
func (r *Resources) RecordStatusWrite(uid types.UID, before, after string) {
	r.statusWrites.record(uid, before, after)
}
