package template

import (
	"context"
	"fmt"
	"sort"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsinformers "k8s.io/apiextensions-apiserver/pkg/client/informers/externalversions/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// crdKind is the template kind a CustomResourceDefinition defines: its
// highest served version (as discovery prefers it), once the CRD is
// established and not being deleted. A CRD being deleted keeps its kind
// until it is gone, so that the deletion of its custom resources is seen.
func crdKind(crd *apiextensionsv1.CustomResourceDefinition) (Resource, bool) {
	if !established(crd) {
		return Resource{}, false
	}
	var served []string
	for _, v := range crd.Spec.Versions {
		if v.Served {
			served = append(served, v.Name)
		}
	}
	if len(served) == 0 {
		return Resource{}, false
	}
	sort.Slice(served, func(i, j int) bool { return version.CompareKubeAwareVersionStrings(served[i], served[j]) > 0 })
	gv := schema.GroupVersion{Group: crd.Spec.Group, Version: served[0]}
	if Excluded(gv.WithResource(crd.Spec.Names.Plural).GroupResource()) {
		return Resource{}, false
	}
	return Resource{
		GVR:        gv.WithResource(crd.Spec.Names.Plural),
		GVK:        gv.WithKind(crd.Spec.Names.Kind),
		Namespaced: crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
	}, true
}

func established(crd *apiextensionsv1.CustomResourceDefinition) bool {
	for _, c := range crd.Status.Conditions {
		if c.Type == apiextensionsv1.Established {
			return c.Status == apiextensionsv1.ConditionTrue
		}
	}
	return false
}

// FollowCRDs keeps the template kinds in step with the
// CustomResourceDefinitions: an established CRD's kind becomes a template
// kind (within the informer's latency, no restart), a CRD's new preferred
// version moves it, and a CRD deleted ends its kind's watch.
func (r *Resources) FollowCRDs(ctx context.Context, crds apiextensionsinformers.CustomResourceDefinitionInformer) error {
	logger := klog.FromContext(ctx).WithName("template-kinds")
	put := func(obj any) {
		crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
		if !ok {
			return
		}
		x, ok := crdKind(crd)
		if !ok {
			return
		}
		changed, err := r.Put(x)
		if err != nil {
			logger.Error(err, "Custom kind not followed", "crd", crd.Name)
		} else if changed {
			logger.Info("Custom kind is a template kind", "kind", x.GVK, "resource", x.GVR)
		}
	}
	_, err := crds.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    put,
		UpdateFunc: func(_, obj any) { put(obj) },
		DeleteFunc: func(obj any) {
			if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = t.Obj
			}
			crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
			if !ok {
				return
			}
			gk := schema.GroupKind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind}
			if r.Remove(gk) {
				logger.Info("Custom kind is gone", "kind", gk)
			}
		},
	})
	if err != nil {
		return fmt.Errorf("follow CustomResourceDefinitions: %w", err)
	}
	return nil
}
