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

// Package placement holds the matching rules shared by the detector, the
// binding controller and the scheduler: which resources a policy's resource
// selectors pick and how specifically (Karmada's implicit priority), which
// PropagationPolicy claims a resource, and which clusters a ClusterAffinity
// selects. Everything here is a pure function of its arguments.
package placement

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// ImplicitPriority tells how specifically a resource selector picks a
// resource. Higher is more specific.
type ImplicitPriority int

// Implicit priorities, in ascending order.
const (
	// PriorityMisMatch: the selector does not pick the resource.
	PriorityMisMatch ImplicitPriority = iota
	// PriorityMatchAll: the selector names only apiVersion and kind (and
	// maybe a namespace), or there is no selector at all where that means
	// "everything".
	PriorityMatchAll
	// PriorityMatchLabelSelector: the selector's labelSelector picks the
	// resource.
	PriorityMatchLabelSelector
	// PriorityMatchName: the selector names the resource.
	PriorityMatchName
)

// ResourceSelectorPriority tells how specifically s picks obj. apiVersion
// and kind must be equal; a namespace, when set, must be equal too. Then a
// name decides alone (the labelSelector is ignored, as in Karmada); without
// a name, a labelSelector must match; without either, the selector matches
// every resource of the kind. The error reports a malformed labelSelector,
// which counts as a mismatch.
func ResourceSelectorPriority(obj *unstructured.Unstructured, s *policyv1alpha1.ResourceSelector) (ImplicitPriority, error) {
	if obj.GetAPIVersion() != s.APIVersion || obj.GetKind() != s.Kind ||
		s.Namespace != "" && s.Namespace != obj.GetNamespace() {
		return PriorityMisMatch, nil
	}
	if s.Name != "" {
		if s.Name == obj.GetName() {
			return PriorityMatchName, nil
		}
		return PriorityMisMatch, nil
	}
	if s.LabelSelector == nil {
		return PriorityMatchAll, nil
	}
	selector, err := metav1.LabelSelectorAsSelector(s.LabelSelector)
	if err != nil {
		return PriorityMisMatch, fmt.Errorf("labelSelector: %w", err)
	}
	if selector.Matches(labels.Set(obj.GetLabels())) {
		return PriorityMatchLabelSelector, nil
	}
	return PriorityMisMatch, nil
}

// ResourceMatches tells whether the selector picks obj; a malformed
// labelSelector picks nothing.
func ResourceMatches(obj *unstructured.Unstructured, s policyv1alpha1.ResourceSelector) bool {
	p, _ := ResourceSelectorPriority(obj, &s)
	return p > PriorityMisMatch
}

// SelectorPriority returns the highest priority with which any of the
// selectors picks obj, PriorityMisMatch when none does (and for an empty
// list: a PropagationPolicy needs at least one selector).
func SelectorPriority(obj *unstructured.Unstructured, selectors []policyv1alpha1.ResourceSelector) ImplicitPriority {
	best := PriorityMisMatch
	for i := range selectors {
		if p, _ := ResourceSelectorPriority(obj, &selectors[i]); p > best {
			best = p
		}
	}
	return best
}

// OverrideSelectorPriority is SelectorPriority for the selectors of an
// OverridePolicy or ClusterOverridePolicy, where no selector at all means
// every resource, at PriorityMatchAll.
func OverrideSelectorPriority(obj *unstructured.Unstructured, selectors []policyv1alpha1.ResourceSelector) ImplicitPriority {
	if len(selectors) == 0 {
		return PriorityMatchAll
	}
	return SelectorPriority(obj, selectors)
}
