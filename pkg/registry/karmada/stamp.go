package karmada

import (
	"slices"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/uuid"
)

// stamp is one change made to every new object of a kind, as Karmada's
// mutating webhooks make it.
type stamp func(metav1.Object)

// onCreate combines stamps into a resource.Spec OnCreate hook.
func onCreate(stamps ...stamp) func(runtime.Object) {
	return func(obj runtime.Object) {
		m, err := meta.Accessor(obj)
		if err != nil {
			return
		}
		for _, s := range stamps {
			s(m)
		}
	}
}

// permanentID labels an object with a new UUID under key unless the client
// set a value: controllers find what an object owns by this ID, which,
// unlike the UID, survives backup and restore.
func permanentID(key string) stamp {
	return func(m metav1.Object) {
		if m.GetLabels()[key] != "" {
			return
		}
		labels := m.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		labels[key] = string(uuid.NewUUID())
		m.SetLabels(labels)
	}
}

// finalizer adds a finalizer to an object unless it is there already.
func finalizer(name string) stamp {
	return func(m metav1.Object) {
		if !slices.Contains(m.GetFinalizers(), name) {
			m.SetFinalizers(append(m.GetFinalizers(), name))
		}
	}
}
