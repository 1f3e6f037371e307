package karmada

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/apis/policy/validation"
	"github.com/mco-org/mco/pkg/registry/resource"
)

// taintPolicyResource serves ClusterTaintPolicy: cluster-scoped, no status,
// no short name (Karmada defines none).
func taintPolicyResource(o Options) *resource.Spec {
	ctp := policyResource(policyv1alpha1.ResourcePluralClusterTaintPolicy, policyv1alpha1.ResourceSingularClusterTaintPolicy,
		policyv1alpha1.ResourceKindClusterTaintPolicy, policyv1alpha1.ResourceNamespaceScopedClusterTaintPolicy, "")
	ctp.New = func() runtime.Object { return &policyv1alpha1.ClusterTaintPolicy{} }
	ctp.NewList = func() runtime.Object { return &policyv1alpha1.ClusterTaintPolicyList{} }
	opts := validation.TaintPolicyOptions{AllowNoExecute: o.AllowNoExecuteTaintPolicy}
	ctp.Validate = resource.Typed(func(p *policyv1alpha1.ClusterTaintPolicy) field.ErrorList {
		return validation.ValidateClusterTaintPolicy(p, opts)
	})
	policy := func(o runtime.Object) *policyv1alpha1.ClusterTaintPolicy {
		return o.(*policyv1alpha1.ClusterTaintPolicy)
	}
	ctp.Columns = []resource.Column{
		{Name: "Taints", Type: "string", Description: "The taints the policy adds and removes, as key=value:effect.",
			Cell: func(o runtime.Object) any { return taintsCell(policy(o).Spec.Taints) }},
	}
	return ctp
}

// taintsCell renders taints as kubectl describe does: key=value:effect,
// without "=" when the value is empty.
func taintsCell(taints []policyv1alpha1.Taint) string {
	out := make([]string, 0, len(taints))
	for _, t := range taints {
		s := t.Key
		if t.Value != "" {
			s += "=" + t.Value
		}
		out = append(out, s+":"+string(t.Effect))
	}
	return strings.Join(out, ",")
}
