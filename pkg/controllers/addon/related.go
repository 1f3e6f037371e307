package addon

import (
	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
)

// Related names the add-ons among all whose decision in some cluster reads
// changed: those that depend on it or conflict with it either way.
func Related(changed *addonsv1alpha1.Addon, all []*addonsv1alpha1.Addon) []string {
	names := map[string]bool{}
	for _, c := range changed.Spec.ConflictsWith {
		names[c.Name] = true
	}
	for _, a := range all {
		if a.Name == changed.Name {
			continue
		}
		for _, r := range append(append([]addonsv1alpha1.AddonReference{}, a.Spec.DependsOn...), a.Spec.ConflictsWith...) {
			if r.Name == changed.Name {
				names[a.Name] = true
			}
		}
	}
	delete(names, changed.Name)
	out := make([]string, 0, len(names))
	for n := range names {
		out = append(out, n)
	}
	return out
}
