package karmada

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/apis/policy/validation"
	"github.com/mco-org/mco/pkg/registry/resource"
)

func policyResource(plural, singular, kind string, namespaced bool, short string) *resource.Spec {
	return &resource.Spec{
		Resource:   schema.GroupResource{Group: policyv1alpha1.GroupName, Resource: plural},
		Singular:   singular,
		Kind:       kind,
		Version:    policyv1alpha1.SchemeGroupVersion.Version,
		Namespaced: namespaced,
		ShortNames: shortNames(short),
		Categories: []string{category},
	}
}

// shortNames lists the short name, if any.
func shortNames(short string) []string {
	if short == "" {
		return nil
	}
	return []string{short}
}

// propagationColumns are shared by PropagationPolicy and ClusterPropagationPolicy.
func propagationColumns(spec func(runtime.Object) *policyv1alpha1.PropagationSpec) []resource.Column {
	return []resource.Column{
		{Name: "Conflict-Resolution", Type: "string", Description: "What happens when the resource already exists in a member cluster.",
			Cell: func(o runtime.Object) any { return string(spec(o).ConflictResolution) }},
		{Name: "Priority", Type: "integer", Description: "Priority among policies matching the same resource.",
			Cell: func(o runtime.Object) any {
				if p := spec(o).Priority; p != nil {
					return int64(*p)
				}
				return int64(0)
			}},
	}
}

func policyResources(o Options) []*resource.Spec {
	pp := policyResource("propagationpolicies", "propagationpolicy", "PropagationPolicy", true, "pp")
	pp.New = func() runtime.Object { return &policyv1alpha1.PropagationPolicy{} }
	pp.NewList = func() runtime.Object { return &policyv1alpha1.PropagationPolicyList{} }
	// Selector namespaces default to the policy's, known only once the
	// request's namespace is set, so default again after decoding.
	pp.Default = func(o runtime.Object) {
		policyv1alpha1.SetDefaults_PropagationPolicy(o.(*policyv1alpha1.PropagationPolicy))
	}
	pp.OnCreate = onCreate(permanentID(policyv1alpha1.PropagationPolicyPermanentIDLabel),
		finalizer(policyv1alpha1.PropagationPolicyControllerFinalizer))
	pp.Validate = resource.Typed(validation.ValidatePropagationPolicy)
	pp.ValidateUpdate = resource.TypedUpdate(validation.ValidatePropagationPolicyUpdate)
	pp.Columns = propagationColumns(func(o runtime.Object) *policyv1alpha1.PropagationSpec {
		return &o.(*policyv1alpha1.PropagationPolicy).Spec
	})

	cpp := policyResource("clusterpropagationpolicies", "clusterpropagationpolicy", "ClusterPropagationPolicy", false, "cpp")
	cpp.New = func() runtime.Object { return &policyv1alpha1.ClusterPropagationPolicy{} }
	cpp.NewList = func() runtime.Object { return &policyv1alpha1.ClusterPropagationPolicyList{} }
	cpp.OnCreate = onCreate(permanentID(policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel),
		finalizer(policyv1alpha1.ClusterPropagationPolicyControllerFinalizer))
	cpp.Validate = resource.Typed(validation.ValidateClusterPropagationPolicy)
	cpp.ValidateUpdate = resource.TypedUpdate(validation.ValidateClusterPropagationPolicyUpdate)
	cpp.Columns = propagationColumns(func(o runtime.Object) *policyv1alpha1.PropagationSpec {
		return &o.(*policyv1alpha1.ClusterPropagationPolicy).Spec
	})

	op := policyResource("overridepolicies", "overridepolicy", "OverridePolicy", true, "op")
	op.New = func() runtime.Object { return &policyv1alpha1.OverridePolicy{} }
	op.NewList = func() runtime.Object { return &policyv1alpha1.OverridePolicyList{} }
	op.Default = func(o runtime.Object) { policyv1alpha1.SetDefaults_OverridePolicy(o.(*policyv1alpha1.OverridePolicy)) }
	op.Validate = resource.Typed(validation.ValidateOverridePolicy)

	cop := policyResource("clusteroverridepolicies", "clusteroverridepolicy", "ClusterOverridePolicy", false, "cop")
	cop.New = func() runtime.Object { return &policyv1alpha1.ClusterOverridePolicy{} }
	cop.NewList = func() runtime.Object { return &policyv1alpha1.ClusterOverridePolicyList{} }
	cop.Validate = resource.Typed(validation.ValidateClusterOverridePolicy)

	return []*resource.Spec{pp, cpp, op, cop, taintPolicyResource(o), quotaResource()}
}
