package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

// clusterGauges are Karmada's per-cluster resource gauges, from the
// Cluster's status.
type clusterGauges struct {
	nodes, readyNodes                  *prometheus.GaugeVec
	cpuAllocatable, cpuAllocated       *prometheus.GaugeVec
	memoryAllocatable, memoryAllocated *prometheus.GaugeVec
	podAllocatable, podAllocated       *prometheus.GaugeVec
}

func newClusterGauges() clusterGauges {
	g := func(name, help string) *prometheus.GaugeVec {
		return prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, []string{"member_cluster"})
	}
	return clusterGauges{
		nodes:             g("cluster_node_number", "Number of nodes in the cluster."),
		readyNodes:        g("cluster_ready_node_number", "Number of Ready nodes in the cluster."),
		cpuAllocatable:    g("cluster_cpu_allocatable_number", "Allocatable CPU of the cluster, in cores."),
		cpuAllocated:      g("cluster_cpu_allocated_number", "CPU requested by the cluster's scheduled pods, in cores."),
		memoryAllocatable: g("cluster_memory_allocatable_bytes", "Allocatable memory of the cluster, in bytes."),
		memoryAllocated:   g("cluster_memory_allocated_bytes", "Memory requested by the cluster's scheduled pods, in bytes."),
		podAllocatable:    g("cluster_pod_allocatable_number", "Number of pods the cluster can hold."),
		podAllocated:      g("cluster_pod_allocated_number", "Number of pods scheduled in the cluster."),
	}
}

func (g clusterGauges) all() []*prometheus.GaugeVec {
	return []*prometheus.GaugeVec{g.nodes, g.readyNodes, g.cpuAllocatable, g.cpuAllocated,
		g.memoryAllocatable, g.memoryAllocated, g.podAllocatable, g.podAllocated}
}

// ObserveCluster sets the cluster's ready state and resource gauges from
// its status.
func (m *ControllerManager) ObserveCluster(c *clusterv1alpha1.Cluster) {
	ready := 0.0
	if meta.IsStatusConditionTrue(c.Status.Conditions, clusterv1alpha1.ClusterConditionReady) {
		ready = 1
	}
	m.ClusterReadyState.WithLabelValues(c.Name).Set(ready)
	if n := c.Status.NodeSummary; n != nil {
		m.clusters.nodes.WithLabelValues(c.Name).Set(float64(n.TotalNum))
		m.clusters.readyNodes.WithLabelValues(c.Name).Set(float64(n.ReadyNum))
	}
	r := c.Status.ResourceSummary
	if r == nil {
		return
	}
	set := func(v *prometheus.GaugeVec, list corev1.ResourceList, name corev1.ResourceName) {
		q := list[name]
		if name == corev1.ResourceCPU {
			v.WithLabelValues(c.Name).Set(float64(q.MilliValue()) / 1000)
			return
		}
		v.WithLabelValues(c.Name).Set(float64(q.Value()))
	}
	set(m.clusters.cpuAllocatable, r.Allocatable, corev1.ResourceCPU)
	set(m.clusters.cpuAllocated, r.Allocated, corev1.ResourceCPU)
	set(m.clusters.memoryAllocatable, r.Allocatable, corev1.ResourceMemory)
	set(m.clusters.memoryAllocated, r.Allocated, corev1.ResourceMemory)
	set(m.clusters.podAllocatable, r.Allocatable, corev1.ResourcePods)
	set(m.clusters.podAllocated, r.Allocated, corev1.ResourcePods)
}

// ForgetCluster drops the series of a cluster that is gone.
func (m *ControllerManager) ForgetCluster(name string) {
	m.ClusterReadyState.DeleteLabelValues(name)
	m.ClusterSyncStatusDuration.DeleteLabelValues(name)
	for _, v := range m.clusters.all() {
		v.DeleteLabelValues(name)
	}
}
