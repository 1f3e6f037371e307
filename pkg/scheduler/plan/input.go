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

package plan

import (
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation/field"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	clustervalidation "github.com/mco-org/mco/pkg/apis/cluster/validation"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	policyvalidation "github.com/mco-org/mco/pkg/apis/policy/validation"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// binding is a ResourceBinding or ClusterResourceBinding given as input.
type binding struct {
	from   string
	uid    string
	spec   *workv1alpha2.ResourceBindingSpec
	status *workv1alpha2.ResourceBindingStatus
}

// policy is a PropagationPolicy or ClusterPropagationPolicy.
type policy struct {
	from      string
	namespace string // empty for the cluster-wide kind
	spec      *policyv1alpha1.PropagationSpec
}

// template is a workload template.
type template struct {
	from string
	obj  *unstructured.Unstructured
}

// inputs sorts the decoded objects by role.
type inputs struct {
	clusters  []*clusterv1alpha1.Cluster
	bindings  []binding
	policies  []policy
	templates []template
}

// givenClusters names, in messages, the clusters given apart from the
// documents.
const givenClusters = "the clusters given"

// classify checks each document and files it by role, after the clusters
// given apart. Override policies are accepted and ignored: they do not
// change where replicas go. It does not check that the whole makes one
// decision (see check).
func classify(clusters []*clusterv1alpha1.Cluster, docs []Document) (*inputs, error) {
	in := &inputs{}
	seen := map[string]string{}
	for _, c := range clusters {
		if _, dup := seen[c.Name]; dup {
			return nil, fmt.Errorf("cluster %q is given twice", c.Name)
		}
		seen[c.Name] = givenClusters
		in.clusters = append(in.clusters, c)
	}
	for _, o := range docs {
		if u, ok := o.Object.(*unstructured.Unstructured); ok {
			in.templates = append(in.templates, template{from: o.Source, obj: u})
			continue
		}
		var errs field.ErrorList
		switch t := o.Object.(type) {
		case *clusterv1alpha1.Cluster:
			if first, dup := seen[t.Name]; dup {
				return nil, fmt.Errorf("%s: cluster %q is already defined in %s", o.Source, t.Name, first)
			}
			seen[t.Name] = o.Source
			for _, msg := range clustervalidation.ValidateClusterName(t.Name, false) {
				errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), t.Name, msg))
			}
			in.clusters = append(in.clusters, t)
		case *workv1alpha2.ResourceBinding:
			errs = defaultAndValidate(t.Spec.Placement)
			in.bindings = append(in.bindings, binding{from: o.Source, uid: string(t.UID), spec: &t.Spec, status: &t.Status})
		case *workv1alpha2.ClusterResourceBinding:
			errs = defaultAndValidate(t.Spec.Placement)
			in.bindings = append(in.bindings, binding{from: o.Source, uid: string(t.UID), spec: &t.Spec, status: &t.Status})
		case *policyv1alpha1.PropagationPolicy:
			errs = defaultAndValidate(&t.Spec.Placement)
			in.policies = append(in.policies, policy{from: o.Source, namespace: t.Namespace, spec: &t.Spec})
		case *policyv1alpha1.ClusterPropagationPolicy:
			errs = defaultAndValidate(&t.Spec.Placement)
			in.policies = append(in.policies, policy{from: o.Source, spec: &t.Spec})
		case *policyv1alpha1.OverridePolicy, *policyv1alpha1.ClusterOverridePolicy:
		default:
			kind := o.Object.GetObjectKind().GroupVersionKind()
			return nil, fmt.Errorf("%s: %s %s is not an input of plan (give Clusters and a ResourceBinding, "+
				"or Clusters, a workload and a PropagationPolicy)", o.Source, kind.GroupVersion(), kind.Kind)
		}
		if len(errs) > 0 {
			return nil, fmt.Errorf("%s: %w", o.Source, errs.ToAggregate())
		}
	}
	return in, in.check()
}

// defaultAndValidate fills in and checks the placement as the apiserver
// does for a policy. A binding's placement is a copy of a defaulted policy
// placement, so a hand-written one gets the same treatment (the scheme has
// no defaults for bindings).
func defaultAndValidate(p *policyv1alpha1.Placement) field.ErrorList {
	if p == nil {
		return nil
	}
	policyv1alpha1.SetDefaults_Placement(p)
	return policyvalidation.ValidatePlacement(p, field.NewPath("spec", "placement"))
}

// check makes sure the objects describe exactly one decision.
func (in *inputs) check() error {
	if len(in.clusters) == 0 {
		return errors.New("no Cluster objects given: plan needs the member clusters to choose from")
	}
	switch {
	case len(in.bindings) > 1:
		return fmt.Errorf("more than one binding given (%s): plan previews one binding at a time", bindingSources(in.bindings))
	case len(in.bindings) == 1 && len(in.policies) > 0:
		return fmt.Errorf("both a binding (%s) and a propagation policy (%s) given: give one or the other",
			in.bindings[0].from, in.policies[0].from)
	case len(in.bindings) == 1:
		return nil
	case len(in.policies) == 0 && len(in.templates) > 0:
		return fmt.Errorf("the workload template (%s) needs a PropagationPolicy or ClusterPropagationPolicy to place it",
			in.templates[0].from)
	case len(in.policies) == 0:
		return errors.New("no ResourceBinding, and no workload template with a PropagationPolicy: nothing to schedule")
	case len(in.policies) > 1:
		return fmt.Errorf("more than one propagation policy given (%s and %s): give one", in.policies[0].from, in.policies[1].from)
	case len(in.templates) == 0:
		return fmt.Errorf("the propagation policy (%s) needs a workload template (for example an apps/v1 Deployment) to place",
			in.policies[0].from)
	}
	return nil
}

func bindingSources(bs []binding) string {
	parts := make([]string, len(bs))
	for i := range bs {
		parts[i] = bs[i].from
	}
	return strings.Join(parts, ", ")
}
