package karmada

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/registry/resource"
)

func taintPolicySpec(t *testing.T, opts ...Option) *resource.Spec {
	t.Helper()
	for _, s := range Resources(opts...) {
		if s.Kind == policyv1alpha1.ResourceKindClusterTaintPolicy {
			return s
		}
	}
	t.Fatal("ClusterTaintPolicy is not served")
	return nil
}

func TestClusterTaintPolicyIsServedAsKarmadaServesIt(t *testing.T) {
	t.Parallel()
	s := taintPolicySpec(t)
	if s.Resource.String() != "clustertaintpolicies.policy.karmada.io" || s.Singular != "clustertaintpolicy" ||
		s.Namespaced || s.HasStatus || len(s.ShortNames) != 0 || s.Version != "v1alpha1" {
		t.Errorf("served as %s (singular %s, namespaced %v, status %v, short names %v, version %s)",
			s.Resource, s.Singular, s.Namespaced, s.HasStatus, s.ShortNames, s.Version)
	}
}

func TestNoExecuteTaintPolicyFollowsTheOption(t *testing.T) {
	t.Parallel()
	policy := &policyv1alpha1.ClusterTaintPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: "failover"},
		Spec: policyv1alpha1.ClusterTaintPolicySpec{
			AddOnConditions: []policyv1alpha1.MatchCondition{{ConditionType: "Ready", Operator: policyv1alpha1.MatchConditionOpIn,
				StatusValues: []metav1.ConditionStatus{metav1.ConditionFalse}}},
			Taints: []policyv1alpha1.Taint{{Key: "cluster.karmada.io/not-ready", Effect: corev1.TaintEffectNoExecute}},
		},
	}
	cases := []struct {
		name    string
		opts    []Option
		refused bool
	}{
		{"By default a NoExecute taint is accepted.", nil, false},
		{"Allowed explicitly, a NoExecute taint is accepted.", []Option{WithAllowNoExecuteTaintPolicy(true)}, false},
		{"Not allowed, a NoExecute taint is refused on its effect.", []Option{WithAllowNoExecuteTaintPolicy(false)}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			errs := taintPolicySpec(t, tc.opts...).Validate(policy.DeepCopy())
			if refused := len(errs) > 0; refused != tc.refused {
				t.Fatalf("errors %v, want refused %v", errs, tc.refused)
			}
			if tc.refused && (errs[0].Field != "spec.taints[0].effect" || !strings.Contains(errs[0].Detail, "--allow-no-execute-taint-policy=false")) {
				t.Errorf("error %v", errs[0])
			}
		})
	}
}

func TestTaintsCell(t *testing.T) {
	t.Parallel()
	got := taintsCell([]policyv1alpha1.Taint{
		{Key: "cluster.karmada.io/not-ready", Effect: corev1.TaintEffectNoExecute},
		{Key: "example.com/gpu", Value: "broken", Effect: corev1.TaintEffectNoSchedule},
	})
	if want := "cluster.karmada.io/not-ready:NoExecute,example.com/gpu=broken:NoSchedule"; got != want {
		t.Errorf("cell %q, want %q", got, want)
	}
}
