// Package builtin describes the k8s.io/api kinds mco-apiserver serves as
// resource templates: names, scope, defaults, validation, selectable fields
// and table columns.
package builtin

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mco-org/mco/pkg/registry/resource"
)

// Resources returns the specs of every built-in resource served.
func Resources() []*resource.Spec {
	var out []*resource.Spec
	out = append(out, coreResources()...)
	out = append(out, podKinds()...)
	out = append(out, workloadResources()...)
	out = append(out, coordinationResources()...)
	for _, spec := range out {
		spec.Kube = kubeStrategies[spec.Resource.Resource]
	}
	return out
}

// newSpec fills the naming fields of a spec.
func newSpec(gv schema.GroupVersion, plural, singular, kind string, namespaced bool, newObj, newList func() runtime.Object) *resource.Spec {
	return &resource.Spec{
		Resource:   schema.GroupResource{Group: gv.Group, Resource: plural},
		Singular:   singular,
		Kind:       kind,
		Version:    gv.Version,
		Namespaced: namespaced,
		New:        newObj,
		NewList:    newList,
	}
}
