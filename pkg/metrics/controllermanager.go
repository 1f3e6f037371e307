package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
)

// ControllerManager holds mco-controller-manager's collectors (Karmada's
// names, no prefix).
type ControllerManager struct {
	ClusterReadyState         *prometheus.GaugeVec
	ClusterSyncStatusDuration *prometheus.HistogramVec
	BindingSyncWorkDuration   *prometheus.HistogramVec
	CreateResourceToCluster   *prometheus.CounterVec
	UpdateResourceToCluster   *prometheus.CounterVec
	DeleteResourceFromCluster *prometheus.CounterVec
	// Staged rollouts (mco's own).
	RolloutWaveDuration *prometheus.HistogramVec
	Rollouts            *prometheus.CounterVec
	RolloutClusters     *prometheus.GaugeVec

	clusters clusterGauges
}

// NewControllerManager creates the collectors and registers them, with the
// build information of component (mco-controller-manager, or mco-agent,
// which runs the controllers that act in members), on reg.
func NewControllerManager(reg prometheus.Registerer, component string) (*ControllerManager, error) {
	resourceLabels := []string{"result", "apiversion", "kind", "member_cluster", "recreate"}
	m := &ControllerManager{
		ClusterReadyState: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "cluster_ready_state",
			Help: "State of the cluster: 1 when Ready, 0 otherwise.",
		}, []string{"member_cluster"}),
		ClusterSyncStatusDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "cluster_sync_status_duration_seconds",
			Help: "Duration in seconds of one collection of a cluster's status.",
		}, []string{"member_cluster"}),
		BindingSyncWorkDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "binding_sync_work_duration_seconds",
			Help:    "Duration in seconds of syncing the Works of one binding.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 12),
		}, []string{"result"}),
		CreateResourceToCluster: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "create_resource_to_cluster",
			Help: "Number of resources created in member clusters.",
		}, resourceLabels),
		UpdateResourceToCluster: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "update_resource_to_cluster",
			Help: "Number of resources updated in member clusters.",
		}, []string{"result", "apiversion", "kind", "member_cluster"}),
		DeleteResourceFromCluster: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "delete_resource_from_cluster",
			Help: "Number of resources deleted from member clusters.",
		}, []string{"result", "apiversion", "kind", "member_cluster"}),
		RolloutWaveDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "mco_rollout_wave_duration_seconds",
			Help:    "Duration in seconds of one wave of a staged rollout, from its start until it passed or failed.",
			Buckets: prometheus.ExponentialBuckets(1, 2, 14),
		}, []string{"result"}),
		Rollouts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mco_rollouts_total",
			Help: "Staged rollouts that ended, by outcome: complete, failed, rolled_back or superseded.",
		}, []string{"outcome"}),
		RolloutClusters: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "mco_rollout_clusters",
			Help: "Clusters given each revision of a staged rollout.",
		}, []string{"namespace", "rollout", "revision"}),
		clusters: newClusterGauges(),
	}
	collectors := []prometheus.Collector{
		m.ClusterReadyState, m.ClusterSyncStatusDuration, m.BindingSyncWorkDuration,
		m.CreateResourceToCluster, m.UpdateResourceToCluster, m.DeleteResourceFromCluster,
		m.RolloutWaveDuration, m.Rollouts, m.RolloutClusters,
		NewBuildInfo(component),
	}
	for _, g := range m.clusters.all() {
		collectors = append(collectors, g)
	}
	for _, c := range collectors {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// Result is "success" or "error", the result label's values.
func Result(err error) string {
	if err != nil {
		return "error"
	}
	return "success"
}
