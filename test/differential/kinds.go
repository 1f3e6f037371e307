// Package differential compares mco-apiserver with a real kube-apiserver:
// every case (a hand-written corpus, mutations of it and Karmada's example
// manifests) is sent to both with dryRun=All, and the outcomes (accepted or
// not, status code, causes, warnings, the defaulted object) must agree, up
// to the deliberate differences of deliberate.go. What differs today is
// listed in testdata/known-drifts.txt. Besides the built-in kinds, custom
// kinds are tested, from CRDs both servers are given first.
package differential

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Kind is a kind both servers serve: a built-in one, or a custom one of
// the CRDs under testdata/crds.
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

// Kinds are the kinds under test, in the order cases run and are reported:
// the built-in ones, then the custom ones.
var Kinds = append(append([]Kind{}, BuiltinKinds...), CustomKinds...)

// BuiltinKinds are the kinds both servers serve from the start.
var BuiltinKinds = []Kind{
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

	{"pod", schema.GroupVersionKind{Version: "v1", Kind: "Pod"}, "pods", true},
	{"podtemplate", schema.GroupVersionKind{Version: "v1", Kind: "PodTemplate"}, "podtemplates", true},
	{"replicationcontroller", schema.GroupVersionKind{Version: "v1", Kind: "ReplicationController"}, "replicationcontrollers", true},
	{"limitrange", schema.GroupVersionKind{Version: "v1", Kind: "LimitRange"}, "limitranges", true},
	{"resourcequota", schema.GroupVersionKind{Version: "v1", Kind: "ResourceQuota"}, "resourcequotas", true},
	{"persistentvolume", schema.GroupVersionKind{Version: "v1", Kind: "PersistentVolume"}, "persistentvolumes", false},
	{"controllerrevision", schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "ControllerRevision"}, "controllerrevisions", true},
	{"cronjob", schema.GroupVersionKind{Group: "batch", Version: "v1", Kind: "CronJob"}, "cronjobs", true},
	{"horizontalpodautoscaler", schema.GroupVersionKind{Group: "autoscaling", Version: "v2", Kind: "HorizontalPodAutoscaler"}, "horizontalpodautoscalers", true},
	{"poddisruptionbudget", schema.GroupVersionKind{Group: "policy", Version: "v1", Kind: "PodDisruptionBudget"}, "poddisruptionbudgets", true},
	{"ingress", schema.GroupVersionKind{Group: "networking.k8s.io", Version: "v1", Kind: "Ingress"}, "ingresses", true},
	{"ingressclass", schema.GroupVersionKind{Group: "networking.k8s.io", Version: "v1", Kind: "IngressClass"}, "ingressclasses", false},
	{"networkpolicy", schema.GroupVersionKind{Group: "networking.k8s.io", Version: "v1", Kind: "NetworkPolicy"}, "networkpolicies", true},
	{"storageclass", schema.GroupVersionKind{Group: "storage.k8s.io", Version: "v1", Kind: "StorageClass"}, "storageclasses", false},
	{"csidriver", schema.GroupVersionKind{Group: "storage.k8s.io", Version: "v1", Kind: "CSIDriver"}, "csidrivers", false},
	{"volumeattributesclass", schema.GroupVersionKind{Group: "storage.k8s.io", Version: "v1", Kind: "VolumeAttributesClass"}, "volumeattributesclasses", false},
	{"priorityclass", schema.GroupVersionKind{Group: "scheduling.k8s.io", Version: "v1", Kind: "PriorityClass"}, "priorityclasses", false},
	{"runtimeclass", schema.GroupVersionKind{Group: "node.k8s.io", Version: "v1", Kind: "RuntimeClass"}, "runtimeclasses", false},
	{"mutatingwebhookconfiguration", schema.GroupVersionKind{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingWebhookConfiguration"}, "mutatingwebhookconfigurations", false},
	{"validatingwebhookconfiguration", schema.GroupVersionKind{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingWebhookConfiguration"}, "validatingwebhookconfigurations", false},
	{"validatingadmissionpolicy", schema.GroupVersionKind{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingAdmissionPolicy"}, "validatingadmissionpolicies", false},
	{"validatingadmissionpolicybinding", schema.GroupVersionKind{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingAdmissionPolicyBinding"}, "validatingadmissionpolicybindings", false},
	{"mutatingadmissionpolicy", schema.GroupVersionKind{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingAdmissionPolicy"}, "mutatingadmissionpolicies", false},
	{"mutatingadmissionpolicybinding", schema.GroupVersionKind{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingAdmissionPolicyBinding"}, "mutatingadmissionpolicybindings", false},
	{"flowschema", schema.GroupVersionKind{Group: "flowcontrol.apiserver.k8s.io", Version: "v1", Kind: "FlowSchema"}, "flowschemas", false},
	{"prioritylevelconfiguration", schema.GroupVersionKind{Group: "flowcontrol.apiserver.k8s.io", Version: "v1", Kind: "PriorityLevelConfiguration"}, "prioritylevelconfigurations", false},
	{"event.events.k8s.io", schema.GroupVersionKind{Group: "events.k8s.io", Version: "v1", Kind: "Event"}, "events", true},
	{"customresourcedefinition", schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}, "customresourcedefinitions", false},
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
