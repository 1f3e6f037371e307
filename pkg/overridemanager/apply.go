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

// Package overridemanager applies OverridePolicies and
// ClusterOverridePolicies to one resource template for one member cluster,
// with Karmada's semantics: which policies apply, in which order, and what
// each overrider does. It reads nothing and writes nothing but the object
// it is given.
package overridemanager

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/clustervalues"
)

// Policies are the override policies to consider: every
// ClusterOverridePolicy, and the OverridePolicies of the resource's
// namespace (others are ignored). Policies being deleted should be left
// out by the caller.
type Policies struct {
	Cluster    []*policyv1alpha1.ClusterOverridePolicy
	Namespaced []*policyv1alpha1.OverridePolicy
}

// AppliedPolicy is one policy that had at least one rule for the cluster.
type AppliedPolicy struct {
	// Namespace is empty for a ClusterOverridePolicy.
	Namespace string
	Name      string
	// Overriders are those of the rules that applied, in order.
	Overriders []policyv1alpha1.Overriders
}

// IsCluster tells whether the policy is a ClusterOverridePolicy.
func (p *AppliedPolicy) IsCluster() bool {
	return p.Namespace == ""
}

// String names the policy the way errors do: "clusteroverridepolicy foo"
// or "overridepolicy default/foo".
func (p *AppliedPolicy) String() string {
	if p.IsCluster() {
		return "clusteroverridepolicy " + p.Name
	}
	return "overridepolicy " + p.Namespace + "/" + p.Name
}

// Applied lists the policies applied, in the order they were applied:
// ClusterOverridePolicies first, then OverridePolicies.
type Applied []AppliedPolicy

// Names returns the policies' String forms, in order.
func (a Applied) Names() []string {
	names := make([]string, len(a))
	for i := range a {
		names[i] = a[i].String()
	}
	return names
}

// Apply overrides obj for the cluster and returns the policies applied.
//
// A policy applies when its resource selectors pick obj (no selector picks
// everything; an OverridePolicy only sees its own namespace). Every
// ClusterOverridePolicy goes before every OverridePolicy; within each
// group the least specific selector goes first (match-all, then
// labelSelector, then name), ties by name, so the most specific policy has
// the last word. Within a policy, each rule whose targetCluster selects the
// cluster (nil: every cluster) applies in order; a policy without rules
// uses the deprecated spec.targetCluster and spec.overriders as one rule.
//
// A policy annotated clustervalues.Annotation "true" has the placeholders
// of its values replaced by the cluster's values first; a value the
// cluster lacks fails that cluster, as any other overrider error.
//
// On error obj is left untouched and the error names the policy, the rule
// and the overrider, e.g. "overridepolicy default/foo rule 1: plaintext[0]
// replace /spec/replicas2: ...". The caller should then write nothing for
// the cluster.
func Apply(obj *unstructured.Unstructured, cluster *clusterv1alpha1.Cluster, p Policies) (Applied, error) {
	steps, err := plan(obj, cluster, p)
	if err != nil || len(steps) == 0 {
		return nil, err
	}
	work := obj.DeepCopy()
	var applied Applied
	for _, s := range steps {
		overriders := &s.overriders
		if s.clusterValues {
			if overriders, err = clustervalues.ExpandOverriders(overriders, cluster); err != nil {
				return nil, fmt.Errorf("%s %s: %w", s.policy.String(), s.rule, err)
			}
		}
		if err := applyOverriders(work, overriders); err != nil {
			return nil, fmt.Errorf("%s %s: %w", s.policy.String(), s.rule, err)
		}
		if n := len(applied); n == 0 || applied[n-1].Namespace != s.policy.Namespace || applied[n-1].Name != s.policy.Name {
			applied = append(applied, s.policy)
		}
		last := &applied[len(applied)-1]
		last.Overriders = append(last.Overriders, *overriders)
	}
	obj.Object = work.Object
	return applied, nil
}
