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
	clearClaimKeys(labels, annotations)
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

// clearClaimKeys deletes every claim key.
func clearClaimKeys(labels, annotations map[string]string) {
	delete(labels, policyv1alpha1.PropagationPolicyPermanentIDLabel)
	delete(labels, policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel)
	delete(annotations, policyv1alpha1.PropagationPolicyNamespaceAnnotation)
	delete(annotations, policyv1alpha1.PropagationPolicyNameAnnotation)
	delete(annotations, policyv1alpha1.ClusterPropagationPolicyAnnotation)
}

func nilIfEmpty(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

// choosePolicy decides which policy claims a template: the policy that
// already claims it while that policy still exists and selects it
// (policies do not take templates from each other without preemption),
// otherwise the best candidate.
func choosePolicy(obj *unstructured.Unstructured, current claim, candidates []placement.Candidate) (placement.Candidate, bool) {
	if !current.empty() {
		for _, c := range candidates {
			if c.Deleting || c.IsCluster != current.cluster || c.Name != current.name || !c.IsCluster && c.Namespace != current.namespace {
				continue
			}
			if claimFor(c).permanentID != current.permanentID {
				continue // a policy of the same name, recreated: not the claimant
			}
			if _, ok := placement.BestPolicy(obj, []placement.Candidate{c}); ok {
				return c, true
			}
		}
	}
	return placement.BestPolicy(obj, candidates)
}
