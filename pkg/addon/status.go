package addon

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

// Observed is what judging an add-on in one cluster reads.
type Observed struct {
	// Previous is the phase the status last gave the cluster.
	Previous addonsv1alpha1.AddonPhase
	// Removing: the add-on is leaving the cluster.
	Removing bool
	// Err is why the cluster's objects could not be made (fetch, values,
	// render); what runs there stays.
	Err error
	// Verdict of Decide for the cluster.
	Verdict Verdict
	// Works are the cluster's Works of the add-on as they stand; Want is
	// how many it should have.
	Works []*workv1alpha1.Work
	Want  int
}

// notEstablished are the apply errors of a custom resource whose
// definition the member does not serve yet: a short wait, not a failure.
var notEstablished = []string{"no matches for kind", "could not find the requested resource", "the server could not find the requested resource"}

// Judge gives an add-on's phase in one cluster and a message a person can
// act on, in this order: leaving, what stops its objects from being made,
// the decision, then the Works: written and applied (Installing until
// then; an apply error is Failed unless a custom resource waits for its
// definition), and the health of every object applied (Healthy; Degraded
// when a cluster Healthy before no longer is, Installing otherwise). An
// object of a kind without a health rule is healthy once applied.
func Judge(o Observed) (addonsv1alpha1.AddonPhase, string) {
	switch {
	case o.Removing:
		return addonsv1alpha1.PhaseRemoving, "removing the add-on's objects"
	case o.Err != nil:
		return addonsv1alpha1.PhaseFailed, o.Err.Error()
	case !o.Verdict.Proceed():
		return o.Verdict.Phase, o.Verdict.Message
	case len(o.Works) < o.Want:
		return addonsv1alpha1.PhaseInstalling, fmt.Sprintf("%d of %d Works written", len(o.Works), o.Want)
	}
	var unhealthy []string
	for _, w := range o.Works {
		applied := meta.FindStatusCondition(w.Status.Conditions, workv1alpha1.WorkApplied)
		switch {
		case applied == nil || applied.ObservedGeneration != w.Generation:
			return addonsv1alpha1.PhaseInstalling, "applying"
		case applied.Status != metav1.ConditionTrue && waitsForDefinition(applied.Message):
			return addonsv1alpha1.PhaseInstalling, "waiting for a CustomResourceDefinition to be established: " + applied.Message
		case applied.Status != metav1.ConditionTrue:
			return addonsv1alpha1.PhaseFailed, applied.Message
		}
		if len(w.Status.ManifestStatuses) < len(w.Spec.Workload.Manifests) {
			return addonsv1alpha1.PhaseInstalling, "health not observed yet"
		}
		for _, m := range w.Status.ManifestStatuses {
			// Unknown: not observed as applied yet (a kind without a health
			// rule is Healthy once applied).
			if m.Health == workv1alpha1.ResourceUnhealthy || m.Health == workv1alpha1.ResourceUnknown {
				id := m.Identifier
				unhealthy = append(unhealthy, fmt.Sprintf("%s %s", id.Kind, strings.TrimPrefix(id.Namespace+"/"+id.Name, "/")))
			}
		}
	}
	if len(unhealthy) == 0 {
		return addonsv1alpha1.PhaseHealthy, ""
	}
	msg := "not healthy yet: " + strings.Join(unhealthy, ", ")
	if o.Previous == addonsv1alpha1.PhaseHealthy || o.Previous == addonsv1alpha1.PhaseDegraded {
		return addonsv1alpha1.PhaseDegraded, "no longer healthy: " + strings.Join(unhealthy, ", ")
	}
	return addonsv1alpha1.PhaseInstalling, msg
}

func waitsForDefinition(msg string) bool {
	for _, s := range notEstablished {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
