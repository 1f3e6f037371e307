package rollout

import (
	"encoding/json"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	"github.com/mco-org/mco/pkg/binding"
)

// RecordNamespace is where the Rollout and revisions of a template live:
// its own namespace, karmada-system for a cluster-scoped template (whose
// binding shares its name with no namespaced one there: templates in
// karmada-system are never propagated).
func RecordNamespace(templateNamespace string) string {
	if templateNamespace == "" {
		return "karmada-system"
	}
	return templateNamespace
}

// BindingOf is the key of the binding a Rollout belongs to (the inverse
// of RecordNamespace and the shared name).
func BindingOf(ro *rolloutv1alpha1.Rollout) binding.Key {
	return binding.Key{Namespace: ro.Spec.Resource.Namespace, Name: ro.Name}
}

// RevisionName names a revision's ControllerRevision.
func RevisionName(rollout, hash string) string {
	return fmt.Sprintf("%s-%s", rollout, hash)
}

// Find returns the revision numbered rev among list, nil when absent.
func Find(list []*appsv1.ControllerRevision, rev int64) *appsv1.ControllerRevision {
	for _, r := range list {
		if r.Revision == rev {
			return r
		}
	}
	return nil
}

// Decode returns the content a ControllerRevision keeps.
func Decode(r *appsv1.ControllerRevision) (map[string]any, error) {
	content := map[string]any{}
	if err := json.Unmarshal(r.Data.Raw, &content); err != nil {
		return nil, fmt.Errorf("decode revision %s/%s: %w", r.Namespace, r.Name, err)
	}
	return content, nil
}
