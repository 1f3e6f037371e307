package builtin

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/apps"
	_ "k8s.io/kubernetes/pkg/apis/apps/install" // internal types, conversions and defaults
	k8sappsv1 "k8s.io/kubernetes/pkg/apis/apps/v1"
	"k8s.io/kubernetes/pkg/apis/batch"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	k8sbatchv1 "k8s.io/kubernetes/pkg/apis/batch/v1"
	"k8s.io/kubernetes/pkg/apis/coordination"
	_ "k8s.io/kubernetes/pkg/apis/coordination/install"
	k8scoordinationv1 "k8s.io/kubernetes/pkg/apis/coordination/v1"
	api "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	k8scorev1 "k8s.io/kubernetes/pkg/apis/core/v1"
	"k8s.io/kubernetes/pkg/registry/apps/controllerrevision"
	"k8s.io/kubernetes/pkg/registry/apps/daemonset"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/kubernetes/pkg/registry/apps/replicaset"
	"k8s.io/kubernetes/pkg/registry/apps/statefulset"
	"k8s.io/kubernetes/pkg/registry/batch/cronjob"
	"k8s.io/kubernetes/pkg/registry/batch/job"
	"k8s.io/kubernetes/pkg/registry/coordination/lease"
	"k8s.io/kubernetes/pkg/registry/core/configmap"
	"k8s.io/kubernetes/pkg/registry/core/event"
	"k8s.io/kubernetes/pkg/registry/core/limitrange"
	"k8s.io/kubernetes/pkg/registry/core/namespace"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolume"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolumeclaim"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/core/podtemplate"
	"k8s.io/kubernetes/pkg/registry/core/replicationcontroller"
	"k8s.io/kubernetes/pkg/registry/core/resourcequota"
	"k8s.io/kubernetes/pkg/registry/core/secret"
	"k8s.io/kubernetes/pkg/registry/core/service"
	"k8s.io/kubernetes/pkg/registry/core/serviceaccount"

	"github.com/mco-org/mco/pkg/registry/resource"
)

// kube returns Kubernetes' own strategy of a built-in resource, the one
// kube-apiserver 1.37 runs: mco prepares, validates and warns exactly as it
// does. status is nil for resources without a status subresource.
func kube(internal func() runtime.Object, main, status resource.KubeRESTStrategy) *resource.KubeStrategy {
	return &resource.KubeStrategy{Scheme: legacyscheme.Scheme, Internal: internal, Main: main, Status: status}
}

// kubeStrategies are the strategies by resource name.
var kubeStrategies = map[string]*resource.KubeStrategy{
	"deployments":     kube(func() runtime.Object { return &apps.Deployment{} }, deployment.Strategy, deployment.StatusStrategy),
	"statefulsets":    kube(func() runtime.Object { return &apps.StatefulSet{} }, statefulset.Strategy, statefulset.StatusStrategy),
	"daemonsets":      kube(func() runtime.Object { return &apps.DaemonSet{} }, daemonset.Strategy, daemonset.StatusStrategy),
	"replicasets":     kube(func() runtime.Object { return &apps.ReplicaSet{} }, replicaset.Strategy, replicaset.StatusStrategy),
	"jobs":            kube(func() runtime.Object { return &batch.Job{} }, job.Strategy, job.StatusStrategy),
	"leases":          kube(func() runtime.Object { return &coordination.Lease{} }, lease.Strategy, nil),
	"namespaces":      kube(func() runtime.Object { return &api.Namespace{} }, namespace.Strategy, namespace.StatusStrategy),
	"configmaps":      kube(func() runtime.Object { return &api.ConfigMap{} }, configmap.Strategy, nil),
	"secrets":         kube(func() runtime.Object { return &api.Secret{} }, secret.Strategy, nil),
	"serviceaccounts": kube(func() runtime.Object { return &api.ServiceAccount{} }, serviceaccount.Strategy, nil),
	"services":        withServiceAllocation(kube(func() runtime.Object { return &api.Service{} }, service.Strategy, service.StatusStrategy)),
	"persistentvolumeclaims": kube(func() runtime.Object { return &api.PersistentVolumeClaim{} },
		persistentvolumeclaim.Strategy, persistentvolumeclaim.StatusStrategy),
	"events": kube(func() runtime.Object { return &api.Event{} }, event.Strategy, nil),

	"controllerrevisions": kube(func() runtime.Object { return &apps.ControllerRevision{} }, controllerrevision.Strategy, nil),
	"cronjobs":            kube(func() runtime.Object { return &batch.CronJob{} }, cronjob.Strategy, cronjob.StatusStrategy),
	"pods":                kube(func() runtime.Object { return &api.Pod{} }, pod.Strategy, pod.StatusStrategy),
	"podtemplates":        kube(func() runtime.Object { return &api.PodTemplate{} }, podtemplate.Strategy, nil),
	"replicationcontrollers": kube(func() runtime.Object { return &api.ReplicationController{} },
		replicationcontroller.Strategy, replicationcontroller.StatusStrategy),
	"limitranges":    kube(func() runtime.Object { return &api.LimitRange{} }, limitrange.Strategy, nil),
	"resourcequotas": kube(func() runtime.Object { return &api.ResourceQuota{} }, resourcequota.Strategy, resourcequota.StatusStrategy),
	"persistentvolumes": kube(func() runtime.Object { return &api.PersistentVolume{} },
		persistentvolume.Strategy, persistentvolume.StatusStrategy),
}

// withServiceAllocation: kube-apiserver allocates a Service's cluster IPs,
// families and node ports before validating; validation in mco sees the
// same on its copy (servicealloc.go), and nothing of it is stored. What
// is read back is shown as kube-apiserver shows it.
func withServiceAllocation(k *resource.KubeStrategy) *resource.KubeStrategy {
	k.Allocate = services.allocate
	k.OnRead = services.onRead
	return k
}

// AddDefaults registers Kubernetes' own defaulting of the served versions
// with scheme: what kube-apiserver applies when it decodes a request or a
// stored object. A built-in kind is then normalized through its internal
// version, as kube-apiserver's decoding into that version does.
func AddDefaults(scheme *runtime.Scheme) error {
	kubeDefaults := runtime.NewScheme()
	for _, register := range []func(*runtime.Scheme) error{
		k8scorev1.RegisterDefaults, k8sappsv1.RegisterDefaults, k8sbatchv1.RegisterDefaults, k8scoordinationv1.RegisterDefaults,
	} {
		if err := register(scheme); err != nil {
			return err
		}
		if err := register(kubeDefaults); err != nil {
			return err
		}
	}
	for _, spec := range Resources() {
		k := spec.Kube
		if k == nil {
			continue
		}
		scheme.AddTypeDefaultingFunc(spec.New(), func(obj any) {
			o := obj.(runtime.Object)
			kubeDefaults.Default(o)
			k.Normalize(o)
		})
	}
	return nil
}
