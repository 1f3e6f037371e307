package extensions

import (
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"
	controlplaneapiserver "k8s.io/kubernetes/pkg/controlplane/apiserver"
)

// Priority is where a group version sits in discovery.
type Priority = controlplaneapiserver.APIServicePriority

// kubePriorities are kube-apiserver's priorities of the groups it serves
// with storage of its own (the generic ones come with the controlplane
// package): discovery lists them in kube-apiserver's order.
var kubePriorities = map[schema.GroupVersion]Priority{
	{Group: "", Version: "v1"}:                  {Group: 18000, Version: 1},
	{Group: "apps", Version: "v1"}:              {Group: 17800, Version: 15},
	{Group: "autoscaling", Version: "v1"}:       {Group: 17500, Version: 15},
	{Group: "autoscaling", Version: "v2"}:       {Group: 17500, Version: 30},
	{Group: "batch", Version: "v1"}:             {Group: 17400, Version: 15},
	{Group: "networking.k8s.io", Version: "v1"}: {Group: 17200, Version: 15},
	{Group: "policy", Version: "v1"}:            {Group: 17100, Version: 15},
	{Group: "storage.k8s.io", Version: "v1"}:    {Group: 16800, Version: 15},
	{Group: "scheduling.k8s.io", Version: "v1"}: {Group: 16600, Version: 15},
	{Group: "node.k8s.io", Version: "v1"}:       {Group: 16300, Version: 15},
}

// Group priorities of the groups mco serves itself, below every group of
// Kubernetes: Karmada registers cluster.karmada.io as an APIService at
// 2000, and its other groups are CRDs (1000).
const (
	clusterGroupPriority = 2000
	ownGroupPriority     = 1000
	topVersionPriority   = 100
)

// Priorities gives every group version listed (as /api/v1 and
// /apis/<group>/<version> paths) a discovery priority: kube-apiserver's for
// Kubernetes' groups, Karmada's for the rest, versions of a group ordered
// as Kubernetes orders them (v2 > v1 > v1beta1 > v1alpha1).
func Priorities(listed []string) map[schema.GroupVersion]Priority {
	out := controlplaneapiserver.DefaultGenericAPIServicePriorities()
	for gv, p := range kubePriorities {
		out[gv] = p
	}
	versions := map[string][]string{}
	for _, path := range listed {
		parts := strings.Split(path, "/")
		if len(parts) != 4 || parts[1] != "apis" {
			continue
		}
		gv := schema.GroupVersion{Group: parts[2], Version: parts[3]}
		if _, ok := out[gv]; !ok {
			versions[gv.Group] = append(versions[gv.Group], gv.Version)
		}
	}
	for group, vs := range versions {
		sort.Slice(vs, func(i, j int) bool { return version.CompareKubeAwareVersionStrings(vs[i], vs[j]) > 0 })
		gp := int32(ownGroupPriority)
		if group == "cluster.karmada.io" {
			gp = clusterGroupPriority
		}
		for i, v := range vs {
			out[schema.GroupVersion{Group: group, Version: v}] = Priority{Group: gp, Version: int32(topVersionPriority - i)}
		}
	}
	return out
}
