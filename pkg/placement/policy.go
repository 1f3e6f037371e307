/*
Copyright The mco Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package placement

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// Candidate is a PropagationPolicy or ClusterPropagationPolicy competing to
// claim a resource.
type Candidate struct {
	// Namespace of a PropagationPolicy; empty for a ClusterPropagationPolicy.
	Namespace string
	// Name of the policy.
	Name string
	// Priority is spec.priority (0 when unset).
	Priority int32
	// Selectors are spec.resourceSelectors.
	Selectors []policyv1alpha1.ResourceSelector
	// IsCluster marks a ClusterPropagationPolicy.
	IsCluster bool
	// Deleting marks a policy with a deletionTimestamp; it claims nothing.
	Deleting bool
	// Policy is the caller's object, returned untouched.
	Policy any
}

// PropagationPolicyCandidate describes a PropagationPolicy.
func PropagationPolicyCandidate(p *policyv1alpha1.PropagationPolicy) Candidate {
	return Candidate{
		Namespace: p.Namespace, Name: p.Name, Priority: explicitPriority(p.Spec.Priority),
		Selectors: p.Spec.ResourceSelectors, Deleting: p.DeletionTimestamp != nil, Policy: p,
	}
}

// ClusterPropagationPolicyCandidate describes a ClusterPropagationPolicy.
func ClusterPropagationPolicyCandidate(p *policyv1alpha1.ClusterPropagationPolicy) Candidate {
	return Candidate{
		Name: p.Name, Priority: explicitPriority(p.Spec.Priority), Selectors: p.Spec.ResourceSelectors,
		IsCluster: true, Deleting: p.DeletionTimestamp != nil, Policy: p,
	}
}

func explicitPriority(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

// BestPolicy picks the policy that claims obj, as Karmada's detector does.
// Eligible are policies not being deleted whose selectors pick obj; a
// PropagationPolicy must also live in obj's namespace. Any eligible
// PropagationPolicy beats every ClusterPropagationPolicy; then the higher
// spec.priority wins, then the more specific selector (name over
// labelSelector over kind only), then the lexically smaller name. The
// second result is false when no policy is eligible.
func BestPolicy(obj *unstructured.Unstructured, candidates []Candidate) (Candidate, bool) {
	var best Candidate
	var bestImplicit ImplicitPriority
	found := false
	for _, c := range candidates {
		if c.Deleting || !c.IsCluster && c.Namespace != obj.GetNamespace() {
			continue
		}
		implicit := SelectorPriority(obj, c.Selectors)
		if implicit == PriorityMisMatch {
			continue
		}
		if !found || better(&c, implicit, &best, bestImplicit) {
			best, bestImplicit, found = c, implicit, true
		}
	}
	return best, found
}

// better tells whether candidate a (with implicit priority ai) beats b.
func better(a *Candidate, ai ImplicitPriority, b *Candidate, bi ImplicitPriority) bool {
	switch {
	case a.IsCluster != b.IsCluster:
		return !a.IsCluster
	case a.Priority != b.Priority:
		return a.Priority > b.Priority
	case ai != bi:
		return ai > bi
	}
	return a.Name < b.Name
}
