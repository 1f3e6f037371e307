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

package overridemanager

import (
	"cmp"
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/clustervalues"
	"github.com/mco-org/mco/pkg/placement"
)

// step is one rule to apply.
type step struct {
	policy     AppliedPolicy // Namespace and Name only
	rule       string        // "rule 1", or "spec.overriders" for the deprecated form
	overriders policyv1alpha1.Overriders
	// clusterValues: the policy substitutes the cluster's values.
	clusterValues bool
}

// matched is a policy whose selectors pick the resource.
type matched struct {
	policy   AppliedPolicy
	spec     *policyv1alpha1.OverrideSpec
	priority placement.ImplicitPriority
	// clusterValues: the policy substitutes the cluster's values.
	clusterValues bool
}

// plan lists the rules to apply to obj for the cluster, in order.
func plan(obj *unstructured.Unstructured, cluster *clusterv1alpha1.Cluster, p Policies) ([]step, error) {
	var clusterWide, namespaced []matched
	for _, cop := range p.Cluster {
		clusterWide = appendIfMatched(clusterWide, obj, &cop.ObjectMeta, &cop.Spec)
	}
	if ns := obj.GetNamespace(); ns != "" {
		for _, op := range p.Namespaced {
			if op.Namespace == ns {
				namespaced = appendIfMatched(namespaced, obj, &op.ObjectMeta, &op.Spec)
			}
		}
	}
	var steps []step
	for _, group := range [][]matched{clusterWide, namespaced} {
		slices.SortStableFunc(group, func(a, b matched) int {
			return cmp.Or(cmp.Compare(a.priority, b.priority), cmp.Compare(a.policy.Name, b.policy.Name))
		})
		for i := range group {
			var err error
			if steps, err = appendRules(steps, &group[i], cluster); err != nil {
				return nil, err
			}
		}
	}
	return steps, nil
}

func appendIfMatched(list []matched, obj *unstructured.Unstructured, policy *metav1.ObjectMeta,
	spec *policyv1alpha1.OverrideSpec) []matched {
	priority := placement.OverrideSelectorPriority(obj, spec.ResourceSelectors)
	if priority == placement.PriorityMisMatch {
		return list
	}
	return append(list, matched{policy: AppliedPolicy{Namespace: policy.Namespace, Name: policy.Name}, spec: spec,
		priority: priority, clusterValues: clustervalues.Enabled(policy.Annotations)})
}

// appendRules adds the policy's rules whose target selects the cluster. A
// policy without rules uses the deprecated targetCluster and overriders.
func appendRules(steps []step, m *matched, cluster *clusterv1alpha1.Cluster) ([]step, error) {
	rules := m.spec.OverrideRules
	label := func(i int) string { return fmt.Sprintf("rule %d", i) }
	if len(rules) == 0 {
		// The deprecated single-rule form is still served.
		rules = []policyv1alpha1.RuleWithCluster{{TargetCluster: m.spec.TargetCluster, Overriders: m.spec.Overriders}}
		label = func(int) string { return "spec.overriders" }
	}
	for i := range rules {
		target, err := placement.CompileAffinity(rules[i].TargetCluster)
		if err != nil {
			return nil, fmt.Errorf("%s %s: targetCluster: %w", m.policy.String(), label(i), err)
		}
		if target.Matches(cluster) && !isEmpty(&rules[i].Overriders) {
			steps = append(steps, step{policy: m.policy, rule: label(i), overriders: rules[i].Overriders, clusterValues: m.clusterValues})
		}
	}
	return steps, nil
}

func isEmpty(o *policyv1alpha1.Overriders) bool {
	return len(o.Plaintext) == 0 && len(o.ImageOverrider) == 0 && len(o.CommandOverrider) == 0 &&
		len(o.ArgsOverrider) == 0 && len(o.LabelsOverrider) == 0 && len(o.AnnotationsOverrider) == 0 &&
		len(o.FieldOverrider) == 0
}
