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

package validation

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// newClusterTaintPolicy is a valid policy that taints a not-ready cluster
// NoExecute and untaints it once ready; cases edit a copy.
func newClusterTaintPolicy(edit func(*policyv1alpha1.ClusterTaintPolicy)) *policyv1alpha1.ClusterTaintPolicy {
	policy := &policyv1alpha1.ClusterTaintPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: "not-ready"},
		Spec: policyv1alpha1.ClusterTaintPolicySpec{
			AddOnConditions: []policyv1alpha1.MatchCondition{{ConditionType: "Ready", Operator: policyv1alpha1.MatchConditionOpIn,
				StatusValues: []metav1.ConditionStatus{metav1.ConditionFalse, metav1.ConditionUnknown}}},
			RemoveOnConditions: []policyv1alpha1.MatchCondition{{ConditionType: "Ready", Operator: policyv1alpha1.MatchConditionOpIn,
				StatusValues: []metav1.ConditionStatus{metav1.ConditionTrue}}},
			Taints: []policyv1alpha1.Taint{{Key: "cluster.karmada.io/not-ready", Effect: corev1.TaintEffectNoExecute}},
		},
	}
	edit(policy)
	return policy
}

func TestValidateClusterTaintPolicy(t *testing.T) {
	t.Parallel()
	const (
		add    = "spec.addOnConditions"
		remove = "spec.removeOnConditions"
		taints = "spec.taints"
	)
	allow := TaintPolicyOptions{AllowNoExecute: true}
	refuse := TaintPolicyOptions{}
	tests := []struct {
		name string
		opts TaintPolicyOptions
		edit func(*policyv1alpha1.ClusterTaintPolicy)
		want []fieldErr
	}{
		{
			name: "A NoExecute policy on Ready is valid when NoExecute is allowed.",
			opts: allow,
			edit: func(*policyv1alpha1.ClusterTaintPolicy) {},
		},
		{
			name: "A NoExecute taint is refused on its effect when NoExecute is not allowed.",
			opts: refuse,
			edit: func(*policyv1alpha1.ClusterTaintPolicy) {},
			want: []fieldErr{forbidden(taints + "[0].effect")},
		},
		{
			name: "A NoSchedule taint is valid when NoExecute is not allowed.",
			opts: refuse,
			edit: func(p *policyv1alpha1.ClusterTaintPolicy) { p.Spec.Taints[0].Effect = corev1.TaintEffectNoSchedule },
		},
		{
			name: "A policy without conditions never acts but is valid.",
			opts: allow,
			edit: func(p *policyv1alpha1.ClusterTaintPolicy) {
				p.Spec.AddOnConditions, p.Spec.RemoveOnConditions = nil, nil
			},
		},
		{
			name: "Target clusters chosen by name, labels and region are valid.",
			opts: allow,
			edit: func(p *policyv1alpha1.ClusterTaintPolicy) {
				p.Spec.TargetClusters = &policyv1alpha1.ClusterAffinity{
					ClusterNames:  []string{"member1"},
					LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"env": "prod"}},
					FieldSelector: &policyv1alpha1.FieldSelector{MatchExpressions: []corev1.NodeSelectorRequirement{
						{Key: "region", Operator: corev1.NodeSelectorOpIn, Values: []string{"eu"}}}},
				}
			},
		},
		{
			name: "Target clusters are checked as a placement's cluster affinity.",
			opts: allow,
			edit: func(p *policyv1alpha1.ClusterTaintPolicy) {
				p.Spec.TargetClusters = &policyv1alpha1.ClusterAffinity{
					LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"bad key": "x"}},
					FieldSelector: &policyv1alpha1.FieldSelector{MatchExpressions: []corev1.NodeSelectorRequirement{
						{Key: "city", Operator: corev1.NodeSelectorOpExists}}},
				}
			},
			want: []fieldErr{
				invalid("spec.targetClusters.labelSelector.matchLabels"),
				notSupported("spec.targetClusters.fieldSelector.matchExpressions[0].key"),
				notSupported("spec.targetClusters.fieldSelector.matchExpressions[0].operator"),
			},
		},
		{
			name: "A policy without taints is rejected.",
			opts: allow,
			edit: func(p *policyv1alpha1.ClusterTaintPolicy) { p.Spec.Taints = nil },
			want: []fieldErr{required(taints)},
		},
		{
			name: "A taint without key and effect is rejected on both.",
			opts: allow,
			edit: func(p *policyv1alpha1.ClusterTaintPolicy) { p.Spec.Taints = []policyv1alpha1.Taint{{}} },
			want: []fieldErr{required(taints + "[0].key"), required(taints + "[0].effect")},
		},
		{
			name: "A taint key that is not a qualified name and a value that is not a label value are rejected.",
			opts: allow,
			edit: func(p *policyv1alpha1.ClusterTaintPolicy) {
				p.Spec.Taints[0].Key, p.Spec.Taints[0].Value = "not ready", "a value!"
			},
			want: []fieldErr{invalid(taints + "[0].key"), invalid(taints + "[0].value")},
		},
		{
			name: "PreferNoSchedule has no meaning for a cluster and is rejected.",
			opts: allow,
			edit: func(p *policyv1alpha1.ClusterTaintPolicy) {
				p.Spec.Taints[0].Effect = corev1.TaintEffectPreferNoSchedule
			},
			want: []fieldErr{notSupported(taints + "[0].effect")},
		},
		{
			name: "Two taints with the same key and effect are rejected, even with different values.",
			opts: allow,
			edit: func(p *policyv1alpha1.ClusterTaintPolicy) {
				p.Spec.Taints = append(p.Spec.Taints, policyv1alpha1.Taint{Key: "cluster.karmada.io/not-ready", Value: "x", Effect: corev1.TaintEffectNoExecute})
			},
			want: []fieldErr{duplicate(taints + "[1]")},
		},
		{
			name: "The same key with two effects is valid.",
			opts: allow,
			edit: func(p *policyv1alpha1.ClusterTaintPolicy) {
				p.Spec.Taints = append(p.Spec.Taints, policyv1alpha1.Taint{Key: "cluster.karmada.io/not-ready", Effect: corev1.TaintEffectNoSchedule})
			},
		},
		{
			name: "A condition without type, operator and status values is rejected on each.",
			opts: allow,
			edit: func(p *policyv1alpha1.ClusterTaintPolicy) {
				p.Spec.AddOnConditions = []policyv1alpha1.MatchCondition{{}}
			},
			want: []fieldErr{required(add + "[0].conditionType"), required(add + "[0].operator"), required(add + "[0].statusValues")},
		},
		{
			name: "An operator other than In and NotIn and a status other than True, False and Unknown are rejected.",
			opts: allow,
			edit: func(p *policyv1alpha1.ClusterTaintPolicy) {
				p.Spec.RemoveOnConditions[0].Operator = "Exists"
				p.Spec.RemoveOnConditions[0].StatusValues = []metav1.ConditionStatus{metav1.ConditionTrue, "Yes"}
			},
			want: []fieldErr{notSupported(remove + "[0].operator"), notSupported(remove + "[0].statusValues[1]")},
		},
		{
			name: "A NotIn condition is valid.",
			opts: allow,
			edit: func(p *policyv1alpha1.ClusterTaintPolicy) {
				p.Spec.AddOnConditions[0].Operator = policyv1alpha1.MatchConditionOpNotIn
				p.Spec.AddOnConditions[0].StatusValues = []metav1.ConditionStatus{metav1.ConditionTrue}
			},
		},
		{
			name: "A name that is not a DNS subdomain and a namespace are rejected.",
			opts: allow,
			edit: func(p *policyv1alpha1.ClusterTaintPolicy) { p.Name, p.Namespace = "Not_Ready", "default" },
			want: []fieldErr{invalid("metadata.name"), forbidden("metadata.namespace")},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			expectErrors(t, ValidateClusterTaintPolicy(newClusterTaintPolicy(tc.edit), tc.opts), tc.want)
		})
	}
}

func TestRefusedNoExecuteNamesTheFlag(t *testing.T) {
	t.Parallel()
	errs := ValidateClusterTaintPolicy(newClusterTaintPolicy(func(*policyv1alpha1.ClusterTaintPolicy) {}), TaintPolicyOptions{})
	if len(errs) != 1 {
		t.Fatalf("errors: %v", errs)
	}
	want := `spec.taints[0].effect: Forbidden: the server refuses NoExecute taints in ClusterTaintPolicy (--allow-no-execute-taint-policy=false)`
	if got := errs[0].Error(); !strings.Contains(got, want) {
		t.Errorf("error %q, want %q", got, want)
	}
}
