package execution

import (
	"context"
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/interpreter"
	"github.com/mco-org/mco/pkg/member"
	"github.com/mco-org/mco/pkg/workload"
)

// FieldManager is the server-side apply field manager mco applies with.
const FieldManager = "mco"

// errConflict is an object in the member that mco may not take over.
type errConflict struct{ msg string }

func (e *errConflict) Error() string { return e.msg }

// decodeManifests returns a Work's manifests as objects.
func decodeManifests(w *workv1alpha1.Work) ([]*unstructured.Unstructured, error) {
	out := make([]*unstructured.Unstructured, 0, len(w.Spec.Workload.Manifests))
	for i, m := range w.Spec.Workload.Manifests {
		u := &unstructured.Unstructured{}
		if err := json.Unmarshal(m.Raw, &u.Object); err != nil {
			return nil, fmt.Errorf("manifest %d of work %s/%s: %w", i, w.Namespace, w.Name, err)
		}
		out = append(out, u)
	}
	return out, nil
}

// target is where a manifest goes in a member.
type target struct {
	client     dynamic.ResourceInterface
	gvr        schema.GroupVersionResource
	namespaced bool
}

// resourceFor returns the client of a manifest's resource in the member,
// refreshing the member's discovery once when the kind is unknown.
func resourceFor(c *member.Clients, obj *unstructured.Unstructured) (target, error) {
	gvk := obj.GroupVersionKind()
	mapping, err := c.Mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if meta.IsNoMatchError(err) {
		c.Mapper.Reset()
		mapping, err = c.Mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	}
	if err != nil {
		return target{}, fmt.Errorf("cluster %s does not serve %s: %w", c.Cluster, gvk, err)
	}
	t := target{gvr: mapping.Resource, namespaced: mapping.Scope.Name() == meta.RESTScopeNameNamespace}
	if t.namespaced {
		t.client = c.Dynamic.Resource(mapping.Resource).Namespace(obj.GetNamespace())
	} else {
		t.client = c.Dynamic.Resource(mapping.Resource)
	}
	return t, nil
}

// managedBy tells whether an object in a member was applied by mco.
func managedBy(obj *unstructured.Unstructured) bool {
	_, ok := obj.GetLabels()[workv1alpha1.WorkPermanentIDLabel]
	return ok
}

// applied is the outcome of applying one manifest.
type applied struct {
	created bool
	gvr     schema.GroupVersionResource
	// object is the member's object as the apply left it.
	object *unstructured.Unstructured
	// retained is true when the member's fields were kept (Retain ran).
	retained bool
	// dropped lists the fields of the manifest the member did not keep.
	dropped []workload.FieldPath
}

// applyManifest server-side applies one manifest in the member; it returns
// an *errConflict when the object exists unmanaged and the manifest says
// not to take it over. What the drift watch knows spares requests: a
// namespace seen before is not looked up again, and an object mco applied
// and saw since is not read before the apply, unless the member owns some
// of its fields (see interpreter.Interpreter.Retain). What may happen in
// the manifest's namespace follows rule; a namespace that cannot take the
// manifest now is an *errNamespaceUnavailable.
func applyManifest(ctx context.Context, c *member.Clients, d *driftWatch, interp *interpreter.Interpreter, w *workv1alpha1.Work, manifest *unstructured.Unstructured, rule namespaceRule) (applied, error) {
	t, err := resourceFor(c, manifest)
	if err != nil {
		return applied{}, err
	}
	ns := manifest.GetNamespace()
	if t.namespaced {
		switch {
		case rule == refuse:
			return applied{}, &errNamespaceUnavailable{msg: fmt.Sprintf("namespace %s is terminating on mco; nothing more is applied into it", ns)}
		case rule == applyCreating && !d.namespaceKnown(c.Cluster, ns):
			if err := ensureNamespace(ctx, c, ns, permanentID(w)); err != nil {
				return applied{}, err
			}
			d.setNamespace(c.Cluster, ns, true)
		}
	}
	created := false
	retains := interp.Retains(manifest)
	var existing *unstructured.Unstructured
	if retains || !d.known(c.Cluster, t.gvr, ns, manifest.GetName()) {
		// Served from the member's watch cache, not etcd: it may lag by
		// moments, which only slightly widens the window that exists
		// anyway between this read and the apply.
		var err error
		existing, err = t.client.Get(ctx, manifest.GetName(), metav1.GetOptions{ResourceVersion: "0"})
		switch {
		case apierrors.IsNotFound(err):
			created = true
		case err != nil:
			return applied{}, fmt.Errorf("get %s %s in cluster %s: %w", manifest.GetKind(), name(manifest), c.Cluster, err)
		case !managedBy(existing) &&
			manifest.GetAnnotations()[workv1alpha1.ResourceConflictResolutionAnnotation] != workv1alpha1.ResourceConflictResolutionOverwrite:
			return applied{}, &errConflict{msg: fmt.Sprintf("%s %s already exists in cluster %s and was not created by mco; conflictResolution is Abort, so it is left alone (set conflictResolution: Overwrite in the PropagationPolicy to take it over)",
				manifest.GetKind(), name(manifest), c.Cluster)}
		}
	}
	obj := stamp(manifest, w)
	if retains && existing != nil && !created {
		// The member owns some fields of the kind (a Pod's node, a
		// Deployment's replicas under its autoscaler): they are applied as
		// the member has them.
		if obj, err = interp.Retain(ctx, obj, existing); err != nil {
			return applied{}, fmt.Errorf("retain the fields of %s %s that cluster %s owns: %w", manifest.GetKind(), name(manifest), c.Cluster, err)
		}
		clearServerFields(obj)
	}
	out, err := t.client.Apply(ctx, obj.GetName(), obj, metav1.ApplyOptions{FieldManager: FieldManager, Force: true})
	if err != nil {
		if t.namespaced && apierrors.IsNotFound(err) {
			d.setNamespace(c.Cluster, ns, false) // deleted in the member: look again next time
		}
		if t.namespaced {
			err = memberRefusal(err, ns, c.Cluster)
		}
		err = fieldsUnknown(err, manifest)
		return applied{}, fmt.Errorf("apply %s %s to cluster %s: %w", manifest.GetKind(), name(manifest), c.Cluster, err)
	}
	return applied{created: created, gvr: t.gvr, object: out, retained: retains && existing != nil && !created,
		dropped: workload.DroppedFields(obj.Object, out.Object)}, nil
}

// serverFields are what a member's server sets on an object; a retention
// script may hand them back from the member's object, and an apply must
// not carry them.
var serverFields = []string{"managedFields", "resourceVersion", "uid", "creationTimestamp", "generation", "selfLink", "deletionTimestamp", "deletionGracePeriodSeconds"}

func clearServerFields(obj *unstructured.Unstructured) {
	if meta, ok := obj.Object["metadata"].(map[string]any); ok {
		for _, f := range serverFields {
			delete(meta, f)
		}
	}
}

// stamp marks an object with the Work it comes from.
func stamp(manifest *unstructured.Unstructured, w *workv1alpha1.Work) *unstructured.Unstructured {
	obj := manifest.DeepCopy()
	labels := obj.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels[workv1alpha1.WorkPermanentIDLabel] = permanentID(w)
	obj.SetLabels(labels)
	annotations := obj.GetAnnotations()
	if annotations == nil {
		annotations = map[string]string{}
	}
	annotations[workv1alpha1.WorkNamespaceAnnotation] = w.Namespace
	annotations[workv1alpha1.WorkNameAnnotation] = w.Name
	obj.SetAnnotations(annotations)
	return obj
}

func permanentID(w *workv1alpha1.Work) string {
	if id := w.Labels[workv1alpha1.WorkPermanentIDLabel]; id != "" {
		return id
	}
	return string(w.UID)
}

// managedObject returns the member's object of a manifest and its
// resource, or a nil object when it is gone or was not applied by mco.
func managedObject(ctx context.Context, c *member.Clients, manifest *unstructured.Unstructured) (target, *unstructured.Unstructured, error) {
	t, err := resourceFor(c, manifest)
	if err != nil {
		return t, nil, err
	}
	existing, err := t.client.Get(ctx, manifest.GetName(), metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return t, nil, nil
	}
	if err != nil {
		return t, nil, fmt.Errorf("get %s %s in cluster %s: %w", manifest.GetKind(), name(manifest), c.Cluster, err)
	}
	if !managedBy(existing) {
		return t, nil, nil
	}
	return t, existing, nil
}

// deleteManifest deletes the object of a manifest from the member when mco
// applied it there; objects mco did not create are never deleted.
func deleteManifest(ctx context.Context, c *member.Clients, manifest *unstructured.Unstructured) error {
	t, existing, err := managedObject(ctx, c, manifest)
	if err != nil || existing == nil {
		return err
	}
	return deleteFrom(ctx, t, c, manifest)
}

// deleteFrom deletes a manifest's object through its resource's client.
func deleteFrom(ctx context.Context, t target, c *member.Clients, manifest *unstructured.Unstructured) error {
	background := metav1.DeletePropagationBackground
	err := t.client.Delete(ctx, manifest.GetName(), metav1.DeleteOptions{PropagationPolicy: &background})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete %s %s from cluster %s: %w", manifest.GetKind(), name(manifest), c.Cluster, err)
	}
	return nil
}

// ensureNamespace creates a missing namespace in the member, marked as
// mco's so that the namespace's own Work (from the namespace controller)
// may take it over and withdraw it later.
func ensureNamespace(ctx context.Context, c *member.Clients, ns, workID string) error {
	_, err := c.Kube.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
	if err == nil {
		return nil
	}
	if !apierrors.IsNotFound(err) {
		return fmt.Errorf("get namespace %s in cluster %s: %w", ns, c.Cluster, err)
	}
	_, err = c.Kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns,
		Labels: map[string]string{workv1alpha1.WorkPermanentIDLabel: workID}}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create namespace %s in cluster %s: %w", ns, c.Cluster, err)
	}
	return nil
}

func name(obj *unstructured.Unstructured) string {
	if ns := obj.GetNamespace(); ns != "" {
		return ns + "/" + obj.GetName()
	}
	return obj.GetName()
}
