package workload

import (
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// Dependency is an object a workload's pods need beside them: a core/v1
// ConfigMap, Secret, ServiceAccount or PersistentVolumeClaim in the
// workload's namespace.
type Dependency struct {
	Kind, Namespace, Name string
}

// podSpecPath is where each workload kind keeps its pod spec.
var podSpecPath = map[string][]string{
	"apps/Deployment":  {"spec", "template", "spec"},
	"apps/StatefulSet": {"spec", "template", "spec"},
	"apps/DaemonSet":   {"spec", "template", "spec"},
	"apps/ReplicaSet":  {"spec", "template", "spec"},
	"batch/Job":        {"spec", "template", "spec"},
	"batch/CronJob":    {"spec", "jobTemplate", "spec", "template", "spec"},
	"/Pod":             {"spec"},
}

// Dependencies lists, sorted, what a workload's pod template refers to:
// ConfigMaps and Secrets in volumes (also projected), env and envFrom of
// every container; image pull Secrets; a ServiceAccount other than
// "default"; PersistentVolumeClaims in volumes. Kinds without a pod
// template have none.
func Dependencies(obj *unstructured.Unstructured) ([]Dependency, error) {
	path, ok := podSpecPath[kindOf(obj)]
	if !ok {
		return nil, nil
	}
	raw, found, err := unstructured.NestedMap(obj.Object, path...)
	if err != nil || !found {
		return nil, err
	}
	var spec corev1.PodSpec
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(raw, &spec); err != nil {
		return nil, fmt.Errorf("decode pod template of %s %s/%s: %w", obj.GetKind(), obj.GetNamespace(), obj.GetName(), err)
	}
	return PodDependencies(obj.GetNamespace(), &spec), nil
}

// PodDependencies lists, sorted, what a pod spec refers to in namespace;
// see Dependencies.
func PodDependencies(namespace string, spec *corev1.PodSpec) []Dependency {
	set := map[Dependency]bool{}
	add := func(kind, name string) {
		if name != "" {
			set[Dependency{Kind: kind, Namespace: namespace, Name: name}] = true
		}
	}
	if sa := spec.ServiceAccountName; sa != "" && sa != "default" {
		add("ServiceAccount", sa)
	}
	for _, s := range spec.ImagePullSecrets {
		add("Secret", s.Name)
	}
	for _, v := range spec.Volumes {
		volumeDependencies(v, add)
	}
	for _, c := range allContainers(spec) {
		for _, e := range c.EnvFrom {
			if e.ConfigMapRef != nil {
				add("ConfigMap", e.ConfigMapRef.Name)
			}
			if e.SecretRef != nil {
				add("Secret", e.SecretRef.Name)
			}
		}
		for _, e := range c.Env {
			if e.ValueFrom == nil {
				continue
			}
			if r := e.ValueFrom.ConfigMapKeyRef; r != nil {
				add("ConfigMap", r.Name)
			}
			if r := e.ValueFrom.SecretKeyRef; r != nil {
				add("Secret", r.Name)
			}
		}
	}
	out := make([]Dependency, 0, len(set))
	for d := range set {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return out[i].Kind < out[j].Kind
		}
		return out[i].Name < out[j].Name
	})
	return out
}

func volumeDependencies(v corev1.Volume, add func(kind, name string)) {
	switch {
	case v.ConfigMap != nil:
		add("ConfigMap", v.ConfigMap.Name)
	case v.Secret != nil:
		add("Secret", v.Secret.SecretName)
	case v.PersistentVolumeClaim != nil:
		add("PersistentVolumeClaim", v.PersistentVolumeClaim.ClaimName)
	case v.Projected != nil:
		for _, s := range v.Projected.Sources {
			if s.ConfigMap != nil {
				add("ConfigMap", s.ConfigMap.Name)
			}
			if s.Secret != nil {
				add("Secret", s.Secret.Name)
			}
		}
	}
}

func allContainers(spec *corev1.PodSpec) []corev1.Container {
	out := append([]corev1.Container{}, spec.InitContainers...)
	out = append(out, spec.Containers...)
	for _, e := range spec.EphemeralContainers {
		out = append(out, corev1.Container{Env: e.Env, EnvFrom: e.EnvFrom})
	}
	return out
}
