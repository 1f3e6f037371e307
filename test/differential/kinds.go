// Package differential compares mco-apiserver with a real kube-apiserver:
// every case (a hand-written corpus, mutations of it and Karmada's example
// manifests) is sent to both with dryRun=All, and the outcomes (accepted or
// not, status code, causes, warnings, the defaulted object) must agree, up
// to the deliberate differences of deliberate.go. What differs today is
// listed in testdata/known-drifts.txt.
package differential

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Kind is a built-in kind both servers serve.
type Kind struct {
	// Dir names the corpus folder (testdata/corpus/<Dir>) and prefixes case names.
	Dir        string
	GVK        schema.GroupVersionKind
	Resource   string
	Namespaced bool
}

// GVR is the kind's resource.
func (k Kind) GVR() schema.GroupVersionResource {
	return k.GVK.GroupVersion().WithResource(k.Resource)
}

// Kinds are the kinds under test, in the order cases run and are reported.
var Kinds = []Kind{
	{"configmap", schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, "configmaps", true},
	{"secret", schema.GroupVersionKind{Version: "v1", Kind: "Secret"}, "secrets", true},
	{"service", schema.GroupVersionKind{Version: "v1", Kind: "Service"}, "services", true},
	{"serviceaccount", schema.GroupVersionKind{Version: "v1", Kind: "ServiceAccount"}, "serviceaccounts", true},
	{"persistentvolumeclaim", schema.GroupVersionKind{Version: "v1", Kind: "PersistentVolumeClaim"}, "persistentvolumeclaims", true},
	{"namespace", schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}, "namespaces", false},
	{"event", schema.GroupVersionKind{Version: "v1", Kind: "Event"}, "events", true},
	{"deployment", schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, "deployments", true},
	{"statefulset", schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "StatefulSet"}, "statefulsets", true},
	{"daemonset", schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "DaemonSet"}, "daemonsets", true},
	{"replicaset", schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "ReplicaSet"}, "replicasets", true},
	{"job", schema.GroupVersionKind{Group: "batch", Version: "v1", Kind: "Job"}, "jobs", true},
	{"lease", schema.GroupVersionKind{Group: "coordination.k8s.io", Version: "v1", Kind: "Lease"}, "leases", true},
}

// KindOf returns the kind under test with apiVersion and kind, if any.
func KindOf(apiVersion, kind string) (Kind, bool) {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return Kind{}, false
	}
	for _, k := range Kinds {
		if k.GVK == gv.WithKind(kind) {
			return k, true
		}
	}
	return Kind{}, false
}

// KindByDir returns the kind whose corpus folder is dir.
func KindByDir(dir string) (Kind, bool) {
	for _, k := range Kinds {
		if k.Dir == dir {
			return k, true
		}
	}
	return Kind{}, false
}
