package clusterstatus

import (
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/workload"
)

// Ready condition reasons (Karmada's).
const (
	ReasonClusterReady        = "ClusterReady"
	ReasonClusterNotReady     = "ClusterNotReady"
	ReasonClusterNotReachable = "ClusterNotReachable"
)

// readyCondition describes the outcome of a health probe.
func readyCondition(reachable, healthy bool, msg string, generation int64) metav1.Condition {
	c := metav1.Condition{Type: clusterv1alpha1.ClusterConditionReady, ObservedGeneration: generation}
	switch {
	case !reachable:
		c.Status, c.Reason, c.Message = metav1.ConditionFalse, ReasonClusterNotReachable, "cluster is not reachable: "+msg
	case !healthy:
		c.Status, c.Reason, c.Message = metav1.ConditionFalse, ReasonClusterNotReady, "cluster is not healthy: "+msg
	default:
		c.Status, c.Reason, c.Message = metav1.ConditionTrue, ReasonClusterReady, "cluster is healthy and ready to accept workloads"
	}
	return c
}

// apiEnablements lists the member's served resources, sorted, without
// subresources.
func apiEnablements(lists []*metav1.APIResourceList) []clusterv1alpha1.APIEnablement {
	var out []clusterv1alpha1.APIEnablement
	for _, l := range lists {
		if _, err := schema.ParseGroupVersion(l.GroupVersion); err != nil {
			continue
		}
		e := clusterv1alpha1.APIEnablement{GroupVersion: l.GroupVersion}
		for _, r := range l.APIResources {
			if strings.Contains(r.Name, "/") {
				continue
			}
			e.Resources = append(e.Resources, clusterv1alpha1.APIResource{Name: r.Name, Kind: r.Kind})
		}
		sort.Slice(e.Resources, func(i, j int) bool { return e.Resources[i].Name < e.Resources[j].Name })
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GroupVersion < out[j].GroupVersion })
	return out
}

// keepFailed adds to a fresh list of the member's APIs the entries of the
// last list for the group versions whose discovery failed this time: an
// aggregated API that is briefly unavailable (metrics-server restarting)
// does not vanish from the cluster's status, and from the scheduler's view
// of what the cluster serves, for that moment.
func keepFailed(fresh, last []clusterv1alpha1.APIEnablement, failed map[schema.GroupVersion]error) []clusterv1alpha1.APIEnablement {
	if len(failed) == 0 {
		return fresh
	}
	have := map[string]bool{}
	for _, e := range fresh {
		have[e.GroupVersion] = true
	}
	out := fresh
	for _, e := range last {
		gv, err := schema.ParseGroupVersion(e.GroupVersion)
		if _, down := failed[gv]; err == nil && down && !have[e.GroupVersion] {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GroupVersion < out[j].GroupVersion })
	return out
}

// nodeSummary counts nodes and ready nodes.
func nodeSummary(nodes []*corev1.Node) *clusterv1alpha1.NodeSummary {
	s := &clusterv1alpha1.NodeSummary{TotalNum: int32(len(nodes))}
	for _, n := range nodes {
		for _, c := range n.Status.Conditions {
			if c.Type == corev1.NodeReady && c.Status == corev1.ConditionTrue {
				s.ReadyNum++
			}
		}
	}
	return s
}

// resourceSummary adds up what schedulable nodes offer (allocatable; a
// node that is not ready still counts, as in Karmada), what pods
// bound to nodes request (allocated) and what pods waiting for a node
// request (allocating), counting pods by their effective requests.
func resourceSummary(nodes []*corev1.Node, pods []*corev1.Pod) *clusterv1alpha1.ResourceSummary {
	s := &clusterv1alpha1.ResourceSummary{Allocatable: corev1.ResourceList{}, Allocated: corev1.ResourceList{}, Allocating: corev1.ResourceList{}}
	for _, n := range nodes {
		if n.Spec.Unschedulable {
			continue
		}
		addList(s.Allocatable, n.Status.Allocatable)
	}
	for _, p := range pods {
		if p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
			continue
		}
		req := workload.PodRequests(&p.Spec)
		req[corev1.ResourcePods] = resource.MustParse("1")
		if p.Spec.NodeName != "" {
			addList(s.Allocated, req)
		} else {
			addList(s.Allocating, req)
		}
	}
	return s
}

func addList(into, more corev1.ResourceList) {
	for k, v := range more {
		q := into[k]
		q.Add(v)
		into[k] = q
	}
}
