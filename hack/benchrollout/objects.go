package main

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
)

// namespace holds the benchmark's objects.
const namespace = "rollout"

// memberNames are the bare members; the first two are a wave each.
var memberNames = []string{"member1", "member2", "member3"}

// benchLabel marks the objects the benchmark creates, which its policies
// select (and nothing else in the namespace, such as kube-root-ca.crt).
const benchLabel = "bench.mco-org.github.io/rollout"

func configMapName(i int) string { return fmt.Sprintf("config-%05d", i) }

// configMap is the i-th ConfigMap at a version of its settings.
func configMap(i int, version string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: configMapName(i), Namespace: namespace, Labels: map[string]string{benchLabel: "true"}},
		Data:       map[string]string{"version": version, "endpoint": fmt.Sprintf("https://service-%d.example.com", i)},
	}
}

func selected() []policyv1alpha1.ResourceSelector {
	return []policyv1alpha1.ResourceSelector{{APIVersion: "v1", Kind: "ConfigMap",
		LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{benchLabel: "true"}}}}
}

// propagationPolicy duplicates each ConfigMap to every member.
func propagationPolicy() *policyv1alpha1.PropagationPolicy {
	return &policyv1alpha1.PropagationPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: "configmaps", Namespace: namespace},
		Spec: policyv1alpha1.PropagationSpec{
			ResourceSelectors: selected(),
			Placement: policyv1alpha1.Placement{
				ClusterAffinity: &policyv1alpha1.ClusterAffinity{ClusterNames: memberNames},
			},
		},
	}
}

// rolloutPolicy stages every ConfigMap: member1, then member2, each
// healthy for healthyFor, then the rest.
func rolloutPolicy(healthyFor metav1.Duration) *rolloutv1alpha1.RolloutPolicy {
	return &rolloutv1alpha1.RolloutPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: "configmaps", Namespace: namespace},
		Spec: rolloutv1alpha1.RolloutPolicySpec{
			ResourceSelectors: selected(),
			Waves: []rolloutv1alpha1.Wave{
				{Name: "first", ClusterNames: memberNames[:1], HealthyFor: &healthyFor},
				{Name: "second", ClusterNames: memberNames[1:2], HealthyFor: &healthyFor},
				{Name: "rest", Rest: true},
			},
		},
	}
}
