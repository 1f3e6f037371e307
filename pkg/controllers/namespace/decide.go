// Package namespace runs, inside mco-apiserver, the finalizer that empties a
// Terminating namespace and then lets it go, as Kubernetes' namespace
// controller does in a full control plane.
package namespace

import (
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// action is what the finalizer does with a namespace.
type action int

const (
	// ignore: the namespace is not being deleted.
	ignore action = iota
	// emptyNamespace: delete its content, then drop our finalizer.
	emptyNamespace
	// deleteAgain: our finalizer is gone; delete once more to remove it.
	deleteAgain
)

// decide picks the action for a namespace.
func decide(ns *corev1.Namespace) action {
	if ns.DeletionTimestamp == nil {
		return ignore
	}
	if slices.Contains(ns.Spec.Finalizers, corev1.FinalizerKubernetes) {
		return emptyNamespace
	}
	if len(ns.Spec.Finalizers) == 0 {
		return deleteAgain
	}
	// Another party's finalizer: it finishes the job.
	return ignore
}

// withoutOurFinalizer returns spec.finalizers minus ours.
func withoutOurFinalizer(finalizers []corev1.FinalizerName) []corev1.FinalizerName {
	out := make([]corev1.FinalizerName, 0, len(finalizers))
	for _, f := range finalizers {
		if f != corev1.FinalizerKubernetes {
			out = append(out, f)
		}
	}
	return out
}

// deletableResources picks, from discovery, the namespaced resources whose
// objects can be listed and deleted by collection, Events last: they are
// often the most numerous, and deleting the rest first stops new ones
// being written about it.
func deletableResources(lists []*metav1.APIResourceList) []schema.GroupVersionResource {
	var out, events []schema.GroupVersionResource
	for _, list := range lists {
		gv, err := schema.ParseGroupVersion(list.GroupVersion)
		if err != nil {
			continue
		}
		for _, r := range list.APIResources {
			if !r.Namespaced || strings.Contains(r.Name, "/") {
				continue
			}
			verbs := r.Verbs
			if !slices.Contains(verbs, "list") || !slices.Contains(verbs, "deletecollection") {
				continue
			}
			if r.Name == "events" {
				events = append(events, gv.WithResource(r.Name))
			} else {
				out = append(out, gv.WithResource(r.Name))
			}
		}
	}
	return append(out, events...)
}

// live counts the objects not yet being deleted.
func live(items []metav1.PartialObjectMetadata) int {
	n := 0
	for i := range items {
		if items[i].DeletionTimestamp == nil {
			n++
		}
	}
	return n
}
