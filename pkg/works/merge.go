// Package works writes Works on mco-apiserver for every controller that
// derives them (bindings, namespaces, FederatedResourceQuotas): one way to
// create a Work or bring it up to date, seeing the writer's own writes
// before its informer does, and one rule for what "up to date" means.
package works

import (
	"encoding/json"

	apiequality "k8s.io/apimachinery/pkg/api/equality"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

// Merge brings have to want: want's labels and annotations are set, those
// others set are kept, and owned annotation keys want lacks are removed;
// the spec becomes want's when it differs, manifests compared by content
// rather than bytes. It reports whether anything changed.
func Merge(have, want *workv1alpha1.Work, ownedAnnotations ...string) bool {
	changed := mergeMap(&have.Labels, want.Labels, nil)
	if mergeMap(&have.Annotations, want.Annotations, ownedAnnotations) {
		changed = true
	}
	if !SpecEqual(have.Spec, want.Spec) {
		have.Spec = want.Spec
		changed = true
	}
	return changed
}

// mergeMap sets want's entries in *have and removes the owned keys want
// lacks; it reports whether *have changed.
func mergeMap(have *map[string]string, want map[string]string, owned []string) bool {
	changed := false
	for _, k := range owned {
		if _, ok := want[k]; ok {
			continue
		}
		if _, had := (*have)[k]; had {
			delete(*have, k)
			changed = true
		}
	}
	for k, v := range want {
		if old, ok := (*have)[k]; ok && old == v {
			continue
		}
		if *have == nil {
			*have = map[string]string{}
		}
		(*have)[k] = v
		changed = true
	}
	return changed
}

// SpecEqual compares Work specs, manifests by content.
func SpecEqual(a, b workv1alpha1.WorkSpec) bool {
	am, bm := a.Workload.Manifests, b.Workload.Manifests
	a.Workload.Manifests, b.Workload.Manifests = nil, nil
	return apiequality.Semantic.DeepEqual(a, b) && ManifestsEqual(am, bm)
}

// ManifestsEqual compares manifests in order by content, not by JSON
// bytes: key order and whitespace do not count. A manifest that is not
// JSON equals nothing.
func ManifestsEqual(a, b []workv1alpha1.Manifest) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		var x, y any
		if json.Unmarshal(a[i].Raw, &x) != nil || json.Unmarshal(b[i].Raw, &y) != nil {
			return false
		}
		if !apiequality.Semantic.DeepEqual(x, y) {
			return false
		}
	}
	return true
}
