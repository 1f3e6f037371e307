package dependencies

import (
	apiequality "k8s.io/apimachinery/pkg/api/equality"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
)

// requiredBy returns the snapshot an independent binding leaves on the
// bindings of its dependencies: who requires them, and where it goes.
func requiredBy(k binding.Key, clusters []workv1alpha2.TargetCluster) workv1alpha2.BindingSnapshot {
	s := workv1alpha2.BindingSnapshot{Namespace: k.Namespace, Name: k.Name}
	for _, c := range clusters {
		s.Clusters = append(s.Clusters, workv1alpha2.TargetCluster{Name: c.Name})
	}
	return s
}

// setRequiredBy puts snapshot s into list, replacing the entry of the same
// binding; it reports change.
func setRequiredBy(list *[]workv1alpha2.BindingSnapshot, s workv1alpha2.BindingSnapshot) bool {
	for i := range *list {
		if (*list)[i].Namespace == s.Namespace && (*list)[i].Name == s.Name {
			if apiequality.Semantic.DeepEqual((*list)[i], s) {
				return false
			}
			(*list)[i] = s
			return true
		}
	}
	*list = append(*list, s)
	return true
}

// dropRequiredBy removes the entry of binding k; it reports change.
func dropRequiredBy(list *[]workv1alpha2.BindingSnapshot, k binding.Key) bool {
	for i := range *list {
		if (*list)[i].Namespace == k.Namespace && (*list)[i].Name == k.Name {
			*list = append((*list)[:i], (*list)[i+1:]...)
			return true
		}
	}
	return false
}

// requires tells whether a binding carries an entry of k.
func requires(spec *workv1alpha2.ResourceBindingSpec, k binding.Key) bool {
	for _, r := range spec.RequiredBy {
		if r.Namespace == k.Namespace && r.Name == k.Name {
			return true
		}
	}
	return false
}

// requiredByIndex indexes bindings by the bindings that require them
// ("namespace/name" of each requiredBy entry), so that releasing what one
// workload required looks at those bindings only, not at every binding of
// its namespace.
const requiredByIndex = "dependencies.requiredBy"

// requiredByKeys is requiredByIndex's index function.
func requiredByKeys(obj any) ([]string, error) {
	rb, ok := obj.(*workv1alpha2.ResourceBinding)
	if !ok {
		return nil, nil
	}
	out := make([]string, 0, len(rb.Spec.RequiredBy))
	for _, r := range rb.Spec.RequiredBy {
		out = append(out, requirerKey(binding.Key{Namespace: r.Namespace, Name: r.Name}))
	}
	return out, nil
}

// requirerKey is a requiring binding's value in requiredByIndex.
func requirerKey(k binding.Key) string { return k.Namespace + "/" + k.Name }

// attached tells whether a binding exists only because others require it
// (no policy placed it): it goes once nothing requires it.
func attached(spec *workv1alpha2.ResourceBindingSpec) bool { return spec.Placement == nil }
