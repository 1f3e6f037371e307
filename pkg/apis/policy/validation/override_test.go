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
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/clustervalues"
)

// replicasRule sets spec.replicas to 2 on member1.
func replicasRule() policyv1alpha1.RuleWithCluster {
	return policyv1alpha1.RuleWithCluster{
		TargetCluster: &policyv1alpha1.ClusterAffinity{ClusterNames: []string{"member1"}},
		Overriders: policyv1alpha1.Overriders{Plaintext: []policyv1alpha1.PlaintextOverrider{
			{Path: "/spec/replicas", Operator: policyv1alpha1.OverriderOpReplace, Value: rawJSON("2")},
		}},
	}
}

// clusterValueOverriders sets an image registry and a label to value.
func clusterValueOverriders(value string) policyv1alpha1.Overriders {
	return policyv1alpha1.Overriders{
		ImageOverrider: []policyv1alpha1.ImageOverrider{{Component: policyv1alpha1.Registry,
			Operator: policyv1alpha1.OverriderOpReplace, Value: value}},
		LabelsOverrider: []policyv1alpha1.LabelAnnotationOverrider{{Operator: policyv1alpha1.OverriderOpAdd,
			Value: map[string]string{"region": value}}},
	}
}

func newOverridePolicy(edit func(*policyv1alpha1.OverridePolicy)) *policyv1alpha1.OverridePolicy {
	policy := &policyv1alpha1.OverridePolicy{
		ObjectMeta: metav1.ObjectMeta{Name: "nginx-override", Namespace: "default"},
		Spec: policyv1alpha1.OverrideSpec{
			ResourceSelectors: []policyv1alpha1.ResourceSelector{deploymentSelector("default", "nginx")},
			OverrideRules:     []policyv1alpha1.RuleWithCluster{replicasRule()},
		},
	}
	edit(policy)
	return policy
}

func TestValidateOverridePolicy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		edit func(*policyv1alpha1.OverridePolicy)
		want []fieldErr
	}{
		{
			name: "A policy with one selector and one rule is valid.",
			edit: func(*policyv1alpha1.OverridePolicy) {},
		},
		{
			name: "A policy without selectors applies to every resource and is valid.",
			edit: func(p *policyv1alpha1.OverridePolicy) { p.Spec.ResourceSelectors = nil },
		},
		{
			name: "A rule without a target cluster applies everywhere and is valid.",
			edit: func(p *policyv1alpha1.OverridePolicy) { p.Spec.OverrideRules[0].TargetCluster = nil },
		},
		{
			name: "A policy without a namespace or a valid name is rejected.",
			edit: func(p *policyv1alpha1.OverridePolicy) {
				p.Name = "-nginx"
				p.Namespace = ""
				p.Spec.ResourceSelectors = nil
			},
			want: []fieldErr{invalid("metadata.name"), required("metadata.namespace")},
		},
		{
			name: "A selector without apiVersion and kind is rejected.",
			edit: func(p *policyv1alpha1.OverridePolicy) {
				p.Spec.ResourceSelectors[0] = policyv1alpha1.ResourceSelector{Name: "nginx"}
			},
			want: []fieldErr{required("spec.resourceSelectors[0].apiVersion"), required("spec.resourceSelectors[0].kind")},
		},
		{
			name: "A selector naming another namespace is rejected.",
			edit: func(p *policyv1alpha1.OverridePolicy) { p.Spec.ResourceSelectors[0].Namespace = "other" },
			want: []fieldErr{invalid("spec.resourceSelectors[0].namespace")},
		},
		{
			name: "A selector with an invalid label selector is rejected.",
			edit: func(p *policyv1alpha1.OverridePolicy) {
				p.Spec.ResourceSelectors[0].LabelSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "not a value"}}
			},
			want: []fieldErr{invalid("spec.resourceSelectors[0].labelSelector.matchLabels")},
		},
		{
			name: "The deprecated single-rule form alone is valid.",
			edit: func(p *policyv1alpha1.OverridePolicy) {
				rule := replicasRule()
				p.Spec.OverrideRules = nil
				p.Spec.TargetCluster = rule.TargetCluster
				p.Spec.Overriders = rule.Overriders
			},
		},
		{
			name: "The deprecated targetCluster next to overrideRules is rejected.",
			edit: func(p *policyv1alpha1.OverridePolicy) {
				p.Spec.TargetCluster = &policyv1alpha1.ClusterAffinity{ClusterNames: []string{"member2"}}
			},
			want: []fieldErr{forbidden("spec.targetCluster")},
		},
		{
			name: "The deprecated overriders next to overrideRules are rejected.",
			edit: func(p *policyv1alpha1.OverridePolicy) { p.Spec.Overriders = replicasRule().Overriders },
			want: []fieldErr{forbidden("spec.overriders")},
		},
		{
			name: "The deprecated form is checked like a rule.",
			edit: func(p *policyv1alpha1.OverridePolicy) {
				p.Spec.OverrideRules = nil
				p.Spec.TargetCluster = &policyv1alpha1.ClusterAffinity{FieldSelector: &policyv1alpha1.FieldSelector{
					MatchExpressions: []corev1.NodeSelectorRequirement{fieldExpr("owner", corev1.NodeSelectorOpIn, "me")},
				}}
				p.Spec.Overriders = policyv1alpha1.Overriders{Plaintext: []policyv1alpha1.PlaintextOverrider{
					{Path: "spec/replicas", Operator: policyv1alpha1.OverriderOpRemove},
				}}
			},
			want: []fieldErr{
				notSupported("spec.targetCluster.fieldSelector.matchExpressions[0].key"),
				invalid("spec.overriders.plaintext[0].path"),
			},
		},
		{
			name: "A rule's target cluster is checked like a cluster affinity.",
			edit: func(p *policyv1alpha1.OverridePolicy) {
				p.Spec.OverrideRules[0].TargetCluster = &policyv1alpha1.ClusterAffinity{
					LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"bad key": "x"}},
					FieldSelector: &policyv1alpha1.FieldSelector{MatchExpressions: []corev1.NodeSelectorRequirement{
						fieldExpr("region", corev1.NodeSelectorOpExists),
					}},
				}
			},
			want: []fieldErr{
				invalid("spec.overrideRules[0].targetCluster.labelSelector.matchLabels"),
				notSupported("spec.overrideRules[0].targetCluster.fieldSelector.matchExpressions[0].operator"),
			},
		},
		{
			name: "Cluster placeholders are literal without mco's annotation, so a label value holding one is refused.",
			edit: func(p *policyv1alpha1.OverridePolicy) {
				p.Spec.OverrideRules[0].Overriders = clusterValueOverriders("${cluster.region}")
			},
			want: []fieldErr{invalid("spec.overrideRules[0].overriders.labelsOverrider[0].value")},
		},
		{
			name: "With the annotation, known placeholders are valid, in label values too.",
			edit: func(p *policyv1alpha1.OverridePolicy) {
				p.Annotations = map[string]string{clustervalues.Annotation: "true"}
				p.Spec.OverrideRules[0].Overriders = clusterValueOverriders("${cluster.region}")
			},
		},
		{
			name: "With the annotation, an unknown placeholder is refused where it is.",
			edit: func(p *policyv1alpha1.OverridePolicy) {
				p.Annotations = map[string]string{clustervalues.Annotation: "true"}
				p.Spec.OverrideRules[0].Overriders = clusterValueOverriders("${cluster.zone}")
			},
			want: []fieldErr{
				invalid("spec.overrideRules[0].overriders.imageOverrider[0].value"),
				invalid("spec.overrideRules[0].overriders.labelsOverrider[0].value[region]"),
			},
		},
		{
			name: "The annotation is true or false.",
			edit: func(p *policyv1alpha1.OverridePolicy) {
				p.Annotations = map[string]string{clustervalues.Annotation: "yes"}
			},
			want: []fieldErr{notSupported("metadata.annotations[" + clustervalues.Annotation + "]")},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			expectErrors(t, ValidateOverridePolicy(newOverridePolicy(tc.edit)), tc.want)
		})
	}
}

func TestValidateClusterOverridePolicy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		edit func(*policyv1alpha1.ClusterOverridePolicy)
		want []fieldErr
	}{
		{
			name: "A cluster-wide policy selecting several namespaces is valid.",
			edit: func(p *policyv1alpha1.ClusterOverridePolicy) {
				p.Spec.ResourceSelectors = append(p.Spec.ResourceSelectors, deploymentSelector("team-b", "web"))
			},
		},
		{
			name: "A cluster-wide policy with a namespace is rejected.",
			edit: func(p *policyv1alpha1.ClusterOverridePolicy) { p.Namespace = "default" },
			want: []fieldErr{forbidden("metadata.namespace")},
		},
		{
			name: "A cluster-wide policy's rules are checked.",
			edit: func(p *policyv1alpha1.ClusterOverridePolicy) {
				p.Spec.OverrideRules[0].Overriders.Plaintext[0].Operator = "merge"
			},
			want: []fieldErr{notSupported("spec.overrideRules[0].overriders.plaintext[0].operator")},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			policy := &policyv1alpha1.ClusterOverridePolicy{
				ObjectMeta: metav1.ObjectMeta{Name: "all-nginx"},
				Spec: policyv1alpha1.OverrideSpec{
					ResourceSelectors: []policyv1alpha1.ResourceSelector{deploymentSelector("team-a", "nginx")},
					OverrideRules:     []policyv1alpha1.RuleWithCluster{replicasRule()},
				},
			}
			tc.edit(policy)
			expectErrors(t, ValidateClusterOverridePolicy(policy), tc.want)
		})
	}
}
