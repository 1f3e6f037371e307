package main

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// benchLabel marks the objects the benchmark creates, which its policies
// select (and nothing else in the namespace, such as kube-root-ca.crt).
const benchLabel = "bench.mco-org.github.io/scale"

// shape is what one replica of a Deployment asks for.
type shape struct{ cpu, memory string }

// shapes alternate over the Deployments: mostly CPU, mostly memory, both.
var shapes = []shape{{"1", "64Mi"}, {"10m", "4Gi"}, {"1", "4Gi"}}

func deploymentName(i int) string { return fmt.Sprintf("app-%05d", i) }
func configMapName(i int) string  { return fmt.Sprintf("config-%05d", i) }

// deployment is the i-th Deployment: 3 replicas of the i-th shape.
func deployment(ns string, i int) *appsv1.Deployment {
	replicas := int32(3)
	name := deploymentName(i)
	sh := shapes[i%len(shapes)]
	labels := map[string]string{"app": name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{"app": name, benchLabel: "true"}},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name:  "app",
					Image: "registry.k8s.io/pause:3.10",
					Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
						corev1.ResourceCPU:    resource.MustParse(sh.cpu),
						corev1.ResourceMemory: resource.MustParse(sh.memory),
					}},
				}}},
			},
		},
	}
}

// configMap is the i-th ConfigMap, a few settings.
func configMap(ns string, i int) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: configMapName(i), Namespace: ns, Labels: map[string]string{benchLabel: "true"}},
		Data: map[string]string{
			"log-level": "info",
			"endpoint":  fmt.Sprintf("https://service-%d.example.com", i),
		},
	}
}

// selected selects the benchmark's objects of one kind.
func selected(apiVersion, kind string) []policyv1alpha1.ResourceSelector {
	return []policyv1alpha1.ResourceSelector{{APIVersion: apiVersion, Kind: kind,
		LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{benchLabel: "true"}}}}
}

// deploymentPolicy divides each Deployment over `spread` of the members,
// chosen by the scheduler, by their available replicas.
func deploymentPolicy(ns string, spread int) *policyv1alpha1.PropagationPolicy {
	return &policyv1alpha1.PropagationPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: "deployments", Namespace: ns},
		Spec: policyv1alpha1.PropagationSpec{
			ResourceSelectors: selected("apps/v1", "Deployment"),
			Placement: policyv1alpha1.Placement{
				SpreadConstraints: []policyv1alpha1.SpreadConstraint{{
					SpreadByField: policyv1alpha1.SpreadByFieldCluster, MinGroups: spread, MaxGroups: spread,
				}},
				ReplicaScheduling: &policyv1alpha1.ReplicaSchedulingStrategy{
					ReplicaSchedulingType:     policyv1alpha1.ReplicaSchedulingTypeDivided,
					ReplicaDivisionPreference: policyv1alpha1.ReplicaDivisionPreferenceWeighted,
					WeightPreference:          &policyv1alpha1.ClusterPreferences{DynamicWeight: policyv1alpha1.DynamicWeightByAvailableReplicas},
				},
			},
		},
	}
}

// configMapPolicy duplicates each ConfigMap to every member.
func configMapPolicy(ns string) *policyv1alpha1.PropagationPolicy {
	return &policyv1alpha1.PropagationPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: "configmaps", Namespace: ns},
		Spec: policyv1alpha1.PropagationSpec{
			ResourceSelectors: selected("v1", "ConfigMap"),
			Placement: policyv1alpha1.Placement{
				ReplicaScheduling: &policyv1alpha1.ReplicaSchedulingStrategy{
					ReplicaSchedulingType: policyv1alpha1.ReplicaSchedulingTypeDuplicated,
				},
			},
		},
	}
}
