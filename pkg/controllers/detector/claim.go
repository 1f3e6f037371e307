package detector

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/placement"
)

// claim is the policy that propagates a template, as recorded on the
// template's labels and annotations (Karmada's keys).
type claim struct {
	cluster     bool   // a ClusterPropagationPolicy
	namespace   string // of a PropagationPolicy
	name        string
	permanentID string
}

func (c claim) empty() bool { return c.name == "" }

// String names the policy: "PropagationPolicy ns/name" or
// "ClusterPropagationPolicy name".
func (c claim) String() string {
	if c.cluster {
		return "ClusterPropagationPolicy " + c.name
	}
	return "PropagationPolicy " + c.namespace + "/" + c.name
}

// claimOf reads the claim recorded on an object's labels and annotations.
func claimOf(labels, annotations map[string]string) claim {
	if id := labels[policyv1alpha1.PropagationPolicyPermanentIDLabel]; id != "" || annotations[policyv1alpha1.PropagationPolicyNameAnnotation] != "" {
		return claim{namespace: annotations[policyv1alpha1.PropagationPolicyNamespaceAnnotation],
			name: annotations[policyv1alpha1.PropagationPolicyNameAnnotation], permanentID: id}
	}
	if id := labels[policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel]; id != "" || annotations[policyv1alpha1.ClusterPropagationPolicyAnnotation] != "" {
		return claim{cluster: true, name: annotations[policyv1alpha1.ClusterPropagationPolicyAnnotation], permanentID: id}
	}
	return claim{}
}

// claimFor describes the claim of a policy candidate.
func claimFor(c placement.Candidate) claim {
	switch p := c.Policy.(type) {
	case *policyv1alpha1.PropagationPolicy:
		return claim{namespace: p.Namespace, name: p.Name, permanentID: permanentID(p.Labels, policyv1alpha1.PropagationPolicyPermanentIDLabel, string(p.UID))}
	case *policyv1alpha1.ClusterPropagationPolicy:
		return claim{cluster: true, name: p.Name, permanentID: permanentID(p.Labels, policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel, string(p.UID))}
	}
	return claim{}
}

func permanentID(labels map[string]string, key, fallback string) string {
	if id := labels[key]; id != "" {
		return id
	}
	return fallback
}

// setClaim writes c onto an object's labels and annotations, replacing
// any other claim (an empty c removes the claim). It reports change.
func setClaim(m metav1.Object, c claim) bool {
	if claimOf(m.GetLabels(), m.GetAnnotations()) == c {
		return false
	}
	labels, annotations := copyMap(m.GetLabels()), copyMap(m.GetAnnotations())
	placement.ClearPolicyClaim(labels, annotations)
	if !c.empty() {
		if c.cluster {
			labels[policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel] = c.permanentID
			annotations[policyv1alpha1.ClusterPropagationPolicyAnnotation] = c.name
		} else {
			labels[policyv1alpha1.PropagationPolicyPermanentIDLabel] = c.permanentID
			annotations[policyv1alpha1.PropagationPolicyNamespaceAnnotation] = c.namespace
			annotations[policyv1alpha1.PropagationPolicyNameAnnotation] = c.name
		}
	}
	m.SetLabels(nilIfEmpty(labels))
	m.SetAnnotations(nilIfEmpty(annotations))
	return true
}

func copyMap(in map[string]string) map[string]string {
	out := make(map[string]string, len(in)+3)
	for k, v := range in {
		out[k] = v
	}
	return out
}

func nilIfEmpty(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

// choosePolicy decides which policy claims a template. A template stays
// with the policy that claimed it while that policy exists and selects it,
// unless another policy preempts it (see preempts); otherwise the best
// candidate claims it. preempted is true when the claim moves by
// preemption.
func choosePolicy(obj *unstructured.Unstructured, current claim, candidates []placement.Candidate) (chosen placement.Candidate, ok, preempted bool) {
	if !current.empty() {
		for _, c := range candidates {
			if c.Deleting || c.IsCluster != current.cluster || c.Name != current.name || !c.IsCluster && c.Namespace != current.namespace {
				continue
			}
			if claimFor(c).permanentID != current.permanentID {
				continue // a policy of the same name, recreated: not the claimant
			}
			if _, selects := placement.BestPolicy(obj, []placement.Candidate{c}); !selects {
				break
			}
			var preemptors []placement.Candidate
			for _, p := range candidates {
				if preempts(obj, p, c) {
					preemptors = append(preemptors, p)
				}
			}
			if best, found := placement.BestPolicy(obj, preemptors); found {
				return best, true, true
			}
			return c, true, false
		}
	}
	chosen, ok = placement.BestPolicy(obj, candidates)
	return chosen, ok, false
}

// preempts tells whether policy p may take obj from its claimant, by
// Karmada's rules (there behind the PolicyPreemption gate, on in mco): p
// has preemption Always and names obj in a selector; a PropagationPolicy
// takes a template from a ClusterPropagationPolicy whatever the
// priorities; otherwise p must be of the claimant's kind with a higher
// priority. A ClusterPropagationPolicy never takes from a
// PropagationPolicy.
func preempts(obj *unstructured.Unstructured, p, claimant placement.Candidate) bool {
	spec := policySpec(p)
	if p.Deleting || spec == nil || spec.Preemption != policyv1alpha1.PreemptAlways || p.Name == claimant.Name && p.IsCluster == claimant.IsCluster && p.Namespace == claimant.Namespace {
		return false
	}
	if !p.IsCluster && p.Namespace != obj.GetNamespace() {
		return false
	}
	if placement.SelectorPriority(obj, p.Selectors) != placement.PriorityMatchName {
		return false
	}
	switch {
	case !p.IsCluster && claimant.IsCluster:
		return true
	case p.IsCluster != claimant.IsCluster:
		return false
	}
	return p.Priority > claimant.Priority
}
