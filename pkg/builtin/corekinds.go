package builtin

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/core/replicationcontroller"

	"github.com/mco-org/mco/pkg/registry/resource"
)

// podKinds are the core kinds that describe Pods and their limits: served
// as templates with Kubernetes' printers for their tables. mco runs no Pod
// and enforces no quota or limit itself; the members do.
func podKinds() []*resource.Spec {
	gv := corev1.SchemeGroupVersion

	po := newSpec(gv, "pods", "pod", "Pod", true,
		func() runtime.Object { return &corev1.Pod{} }, func() runtime.Object { return &corev1.PodList{} })
	po.ShortNames = []string{"po"}
	po.Categories = []string{"all"}
	po.HasStatus = true
	po.Fields = kubeFields(pod.GetAttrs)

	tmpl := newSpec(gv, "podtemplates", "podtemplate", "PodTemplate", true,
		func() runtime.Object { return &corev1.PodTemplate{} }, func() runtime.Object { return &corev1.PodTemplateList{} })

	rc := newSpec(gv, "replicationcontrollers", "replicationcontroller", "ReplicationController", true,
		func() runtime.Object { return &corev1.ReplicationController{} },
		func() runtime.Object { return &corev1.ReplicationControllerList{} })
	rc.ShortNames = []string{"rc"}
	rc.Categories = []string{"all"}
	rc.HasStatus = true
	rc.Fields = kubeFields(replicationcontroller.GetAttrs)

	limits := newSpec(gv, "limitranges", "limitrange", "LimitRange", true,
		func() runtime.Object { return &corev1.LimitRange{} }, func() runtime.Object { return &corev1.LimitRangeList{} })
	limits.ShortNames = []string{"limits"}

	quota := newSpec(gv, "resourcequotas", "resourcequota", "ResourceQuota", true,
		func() runtime.Object { return &corev1.ResourceQuota{} }, func() runtime.Object { return &corev1.ResourceQuotaList{} })
	quota.ShortNames = []string{"quota"}
	quota.HasStatus = true

	pv := newSpec(gv, "persistentvolumes", "persistentvolume", "PersistentVolume", false,
		func() runtime.Object { return &corev1.PersistentVolume{} }, func() runtime.Object { return &corev1.PersistentVolumeList{} })
	pv.ShortNames = []string{"pv"}
	pv.HasStatus = true

	out := []*resource.Spec{po, tmpl, rc, limits, quota, pv}
	for _, s := range out {
		s.Table = kubeTable{}
	}
	return out
}

// kubeFields returns the fields Kubernetes' own GetAttrs of a kind selects
// by, computed on the object's internal version as kube-apiserver does.
func kubeFields(getAttrs func(runtime.Object) (labels.Set, fields.Set, error)) func(runtime.Object) fields.Set {
	return func(obj runtime.Object) fields.Set {
		in, err := toInternal(obj)
		if err != nil {
			return nil
		}
		_, fs, err := getAttrs(in)
		if err != nil {
			return nil
		}
		return fs
	}
}
