package addon

import (
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/mco-org/mco/pkg/addon"
	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
)

// Peers are the add-ons as deciding one of them in cluster reads them:
// where each is placed (placed, by add-on name) and what its status says
// of cluster.
func Peers(addons []*addonsv1alpha1.Addon, placed map[string]sets.Set[string], cluster string) map[string]addon.Peer {
	out := make(map[string]addon.Peer, len(addons))
	for _, a := range addons {
		p := addon.Peer{Name: a.Name, Created: a.CreationTimestamp.Time, Placed: placed[a.Name].Has(cluster)}
		for _, d := range a.Spec.DependsOn {
			p.DependsOn = append(p.DependsOn, d.Name)
		}
		for _, c := range a.Spec.ConflictsWith {
			p.ConflictsWith = append(p.ConflictsWith, c.Name)
		}
		for _, c := range a.Status.Clusters {
			if c.Name == cluster {
				p.Phase, p.Installed = c.Phase, installed(&c)
			}
		}
		out[a.Name] = p
	}
	return out
}

// installed tells whether something of an add-on is applied in a
// cluster, by its status there: a phase that follows an apply, or a
// failure after objects were written.
func installed(c *addonsv1alpha1.AddonClusterStatus) bool {
	switch c.Phase {
	case addonsv1alpha1.PhaseInstalling, addonsv1alpha1.PhaseHealthy, addonsv1alpha1.PhaseDegraded, addonsv1alpha1.PhaseRemoving:
		return true
	case addonsv1alpha1.PhaseFailed:
		return c.LastSyncTime != nil
	}
	return false
}
