package execution

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"github.com/mco-org/mco/pkg/addon"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/controllers/workstatus"
	"github.com/mco-org/mco/pkg/member"
	"github.com/mco-org/mco/pkg/metrics"
)

// memberKey names an object in a member whatever the version it is read
// at.
type memberKey struct {
	group, kind, namespace, name string
}

func memberKeyOf(obj *unstructured.Unstructured) memberKey {
	gvk := obj.GroupVersionKind()
	return memberKey{gvk.Group, gvk.Kind, obj.GetNamespace(), obj.GetName()}
}

func memberKeyOfIdentifier(id workv1alpha1.ResourceIdentifier) memberKey {
	return memberKey{id.Group, id.Kind, id.Namespace, id.Name}
}

// defaultNamespaces puts an add-on's namespaced objects that name no
// namespace into its release namespace, as helm install does.
func defaultNamespaces(c *member.Clients, w *workv1alpha1.Work, manifests []*unstructured.Unstructured) {
	for _, m := range manifests {
		workstatus.DefaultNamespace(c.Mapper, w, m)
	}
}

// applied lists what a Work had applied before this sync: the objects its
// recorded status names, and those of a status held for the work status
// controller to write.
func (e *Controller) appliedBefore(cached *workv1alpha1.Work) []workv1alpha1.ResourceIdentifier {
	ids := make([]workv1alpha1.ResourceIdentifier, 0, len(cached.Status.ManifestStatuses))
	for _, s := range cached.Status.ManifestStatuses {
		ids = append(ids, s.Identifier)
	}
	if held, ok := e.held.Get(types.NamespacedName{Namespace: cached.Namespace, Name: cached.Name}); ok {
		for _, s := range held.Status.ManifestStatuses {
			ids = append(ids, s.Identifier)
		}
	}
	return ids
}

// prune deletes from the member the objects a Work applied before and no
// longer holds (an add-on's new revision renders them no more), unless
// another Work of the same add-on holds them now or they are marked to be
// kept (helm.sh/resource-policy: keep), which are released instead.
func (e *Controller) prune(ctx context.Context, c *member.Clients, w *workv1alpha1.Work, before []workv1alpha1.ResourceIdentifier, manifests []*unstructured.Unstructured) error {
	gone := dropped(before, manifests)
	if len(gone) == 0 {
		return nil
	}
	return e.deleteObjects(ctx, c, w, gone)
}

// dropped are the objects applied before (by their identifiers) that the
// manifests no longer hold, whatever version they are named at, each once.
func dropped(before []workv1alpha1.ResourceIdentifier, manifests []*unstructured.Unstructured) []*unstructured.Unstructured {
	seen := map[memberKey]bool{}
	for _, m := range manifests {
		seen[memberKeyOf(m)] = true
	}
	var gone []*unstructured.Unstructured
	for _, id := range before {
		k := memberKeyOfIdentifier(id)
		if seen[k] || id.Kind == "" || id.Name == "" {
			continue
		}
		seen[k] = true
		obj := &unstructured.Unstructured{}
		obj.SetAPIVersion(schemaGroupVersion(id.Group, id.Version))
		obj.SetKind(id.Kind)
		obj.SetNamespace(id.Namespace)
		obj.SetName(id.Name)
		gone = append(gone, obj)
	}
	return gone
}

// deleteObjects deletes objects of a Work from its member: those still
// carrying this Work's mark and held by no other live Work of the same
// add-on; an object marked to be kept is released instead.
func (e *Controller) deleteObjects(ctx context.Context, c *member.Clients, w *workv1alpha1.Work, objs []*unstructured.Unstructured) error {
	held := e.heldBySiblings(w)
	for _, m := range objs {
		if held[memberKeyOf(m)] {
			continue
		}
		t, existing, err := managedObject(ctx, c, m)
		if err != nil {
			return err
		}
		if existing == nil {
			continue
		}
		if owner := existing.GetAnnotations()[workv1alpha1.WorkNameAnnotation]; owner != "" && owner != w.Name {
			continue // another Work applies it now
		}
		if existing.GetAnnotations()[addon.ResourcePolicyAnnotation] == "keep" {
			if err := releaseManifest(ctx, c, m); err != nil {
				return err
			}
			continue
		}
		err = deleteFrom(ctx, t, c, m)
		e.metrics.DeleteResourceFromCluster.WithLabelValues(metrics.Result(err), m.GetAPIVersion(), m.GetKind(), c.Cluster).Inc()
		if err != nil {
			return err
		}
	}
	return nil
}

// heldBySiblings are the objects the other live Works of w's add-on in the
// same cluster hold (none for a Work that is not an add-on's): an object
// moving from one of an add-on's Works to another is not deleted on the
// way.
func (e *Controller) heldBySiblings(w *workv1alpha1.Work) map[memberKey]bool {
	name := w.Labels[addon.AddonLabel]
	if name == "" {
		return nil
	}
	siblings, err := e.works.Works(w.Namespace).List(labels.SelectorFromSet(labels.Set{addon.AddonLabel: name}))
	if err != nil {
		return nil
	}
	return heldBy(w, siblings)
}

// heldBy are the objects the live Works among siblings, w apart, hold: an
// object without a namespace counted in its Work's release namespace too,
// where it was applied if namespaced.
func heldBy(w *workv1alpha1.Work, siblings []*workv1alpha1.Work) map[memberKey]bool {
	out := map[memberKey]bool{}
	for _, s := range siblings {
		if s.Name == w.Name || s.DeletionTimestamp != nil {
			continue
		}
		manifests, err := decodeManifests(s)
		if err != nil {
			continue
		}
		for _, m := range manifests {
			k := memberKeyOf(m)
			out[k] = true
			if k.namespace == "" {
				k.namespace = s.Annotations[addon.NamespaceAnnotation]
				out[k] = true
			}
		}
	}
	return out
}

func schemaGroupVersion(group, version string) string {
	if group == "" {
		return version
	}
	return group + "/" + version
}
