package dashboard

import (
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/placement"
)

// PolicyRow is one policy on the Policies page.
type PolicyRow struct {
	Kind, Namespace, Name string
	// Selectors are the policy's resource selectors in words.
	Selectors []string
	// Templates are the workloads it selects (propagation policies: those
	// it claimed; override policies: those its selectors name).
	Templates []WorkloadRow
	// ByLabels: some selector picks templates by labels, which bindings do
	// not carry, so Templates may miss some.
	ByLabels bool
}

// PoliciesPage is the view model of the Policies page.
type PoliciesPage struct {
	Propagation, Override []PolicyRow
}

// policyKey names a propagation policy: its kind, namespace (empty for a
// cluster-scoped one) and name.
type policyKey struct{ kind, namespace, name string }

// claimedBy is the policy that claimed a binding, by its annotations.
func claimedBy(b *Binding) (policyKey, bool) {
	if n := b.Annotations[policyv1alpha1.ClusterPropagationPolicyAnnotation]; n != "" {
		return policyKey{"ClusterPropagationPolicy", "", n}, true
	}
	if n := b.Annotations[policyv1alpha1.PropagationPolicyNameAnnotation]; n != "" {
		return policyKey{"PropagationPolicy", b.Namespace, n}, true
	}
	return policyKey{}, false
}

// policiesPage lists every propagation and override policy the user may
// read with the workloads each selects.
func policiesPage(s *Snapshot) PoliciesPage {
	var p PoliciesPage
	claimed := map[policyKey][]WorkloadRow{}
	for _, b := range s.Bindings {
		if k, ok := claimedBy(b); ok {
			claimed[k] = append(claimed[k], workloadRow(b))
		}
	}
	for _, pp := range s.PropagationPolicies {
		p.Propagation = append(p.Propagation, PolicyRow{Kind: "PropagationPolicy", Namespace: pp.Namespace, Name: pp.Name,
			Selectors: selectorsText(pp.Spec.ResourceSelectors), Templates: claimed[policyKey{"PropagationPolicy", pp.Namespace, pp.Name}]})
	}
	for _, cpp := range s.ClusterPropagationPolicies {
		p.Propagation = append(p.Propagation, PolicyRow{Kind: "ClusterPropagationPolicy", Name: cpp.Name,
			Selectors: selectorsText(cpp.Spec.ResourceSelectors), Templates: claimed[policyKey{"ClusterPropagationPolicy", "", cpp.Name}]})
	}
	for _, op := range s.OverridePolicies {
		p.Override = append(p.Override, overrideRow("OverridePolicy", op.Namespace, op.Name, op.Spec.ResourceSelectors, s.Bindings))
	}
	for _, cop := range s.ClusterOverridePolicies {
		p.Override = append(p.Override, overrideRow("ClusterOverridePolicy", "", cop.Name, cop.Spec.ResourceSelectors, s.Bindings))
	}
	for _, rows := range [][]PolicyRow{p.Propagation, p.Override} {
		sort.Slice(rows, func(i, j int) bool {
			if rows[i].Namespace != rows[j].Namespace {
				return rows[i].Namespace < rows[j].Namespace
			}
			return rows[i].Name < rows[j].Name
		})
	}
	return p
}

// overrideRow matches an override policy's selectors against the
// bindings' templates (an OverridePolicy sees its own namespace only; no
// selector selects everything).
func overrideRow(kind, namespace, name string, sels []policyv1alpha1.ResourceSelector, bindings []*Binding) PolicyRow {
	row := PolicyRow{Kind: kind, Namespace: namespace, Name: name, Selectors: selectorsText(sels)}
	for _, sel := range sels {
		if sel.Name == "" && sel.LabelSelector != nil {
			row.ByLabels = true
		}
	}
	for _, b := range bindings {
		r := b.Spec.Resource
		if namespace != "" && r.Namespace != namespace {
			continue
		}
		if len(sels) == 0 || anySelects(sels, r.APIVersion, r.Kind, r.Namespace, r.Name) {
			row.Templates = append(row.Templates, workloadRow(b))
		}
	}
	return row
}

// anySelects tells whether a selector picks the template, by placement's
// own matching on a stub of it: a name decides alone (a label selector
// beside it is ignored, as in Karmada). A selector by labels alone cannot
// be judged from a binding, which does not carry the template's labels.
func anySelects(sels []policyv1alpha1.ResourceSelector, apiVersion, kind, namespace, name string) bool {
	stub := &unstructured.Unstructured{}
	stub.SetAPIVersion(apiVersion)
	stub.SetKind(kind)
	stub.SetNamespace(namespace)
	stub.SetName(name)
	for _, s := range sels {
		if s.Name == "" && s.LabelSelector != nil {
			continue
		}
		if placement.ResourceMatches(stub, s) {
			return true
		}
	}
	return false
}

// selectorsText renders selectors as "Deployment default/web" or
// "Deployment labelled app=web"; no selector is "every resource".
func selectorsText(sels []policyv1alpha1.ResourceSelector) []string {
	if len(sels) == 0 {
		return []string{"every resource"}
	}
	out := make([]string, 0, len(sels))
	for _, s := range sels {
		t := s.Kind
		switch {
		case s.Name != "" && s.Namespace != "":
			t += " " + s.Namespace + "/" + s.Name
		case s.Name != "":
			t += " " + s.Name
		case s.Namespace != "":
			t += " in " + s.Namespace
		default:
			t = "every " + s.Kind
		}
		if s.LabelSelector != nil {
			t += " labelled " + metav1.FormatLabelSelector(s.LabelSelector)
		}
		out = append(out, t)
	}
	return out
}
