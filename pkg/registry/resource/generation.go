package resource

import (
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// GenerationPolicy says when the server sets and bumps metadata.generation,
// which controllers compare with status.observedGeneration.
type GenerationPolicy int

const (
	// GenerationOnSpecChange sets generation to 1 on create and bumps it
	// when anything outside metadata and status changes. kube-apiserver does
	// this for custom resources (Karmada's kinds are CRDs there) and for
	// StatefulSet, DaemonSet, ReplicaSet and Job.
	GenerationOnSpecChange GenerationPolicy = iota
	// GenerationOnSpecOrAnnotationChange also bumps on an annotation change,
	// as kube-apiserver does for Deployment, whose annotations its
	// controller copies to the ReplicaSets.
	GenerationOnSpecOrAnnotationChange
	// GenerationNone leaves metadata.generation alone, as kube-apiserver does
	// for kinds without one (ConfigMap, Secret, Service, Namespace, ...): the
	// server never sets it, and an update keeps the stored value.
	GenerationNone
)

// onCreate sets the generation of a new object.
func (p GenerationPolicy) onCreate(m metav1.Object) {
	if p != GenerationNone {
		m.SetGeneration(1)
	}
}

// onUpdate sets the generation of an updated object from the stored one.
func (p GenerationPolicy) onUpdate(obj, old runtime.Object, newMeta, oldMeta metav1.Object) {
	newMeta.SetGeneration(oldMeta.GetGeneration())
	if p.bumps(obj, old, newMeta, oldMeta) {
		newMeta.SetGeneration(oldMeta.GetGeneration() + 1)
	}
}

func (p GenerationPolicy) bumps(obj, old runtime.Object, newMeta, oldMeta metav1.Object) bool {
	switch p {
	case GenerationNone:
		return false
	case GenerationOnSpecOrAnnotationChange:
		if !apiequality.Semantic.DeepEqual(newMeta.GetAnnotations(), oldMeta.GetAnnotations()) {
			return true
		}
	}
	return !apiequality.Semantic.DeepEqual(specOf(obj), specOf(old))
}

// specOf returns the fields whose change bumps metadata.generation: every
// top-level field but type, metadata and status.
func specOf(obj runtime.Object) []any {
	v := structValue(obj)
	t := v.Type()
	var out []any
	for i := 0; i < t.NumField(); i++ {
		switch t.Field(i).Name {
		case "TypeMeta", "ObjectMeta", "Status":
			continue
		}
		out = append(out, v.Field(i).Interface())
	}
	return out
}
