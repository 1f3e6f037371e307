// Package metrics defines every Prometheus collector of mco's components,
// registered explicitly on a registry the component owns (no init()).
// Names and labels follow Karmada's, so that existing dashboards work.
package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
)

// Scheduler holds mco-scheduler's collectors.
type Scheduler struct {
	ScheduleAttempts       *prometheus.CounterVec
	E2ESchedulingDuration  *prometheus.HistogramVec
	AlgorithmDuration      *prometheus.HistogramVec
	ExtensionPointDuration *prometheus.HistogramVec
	PluginDuration         *prometheus.HistogramVec
	PendingBindings        *prometheus.GaugeVec
	// EvictionKind counts bindings moved off a cluster, by cluster and kind.
	EvictionKind *prometheus.CounterVec
	// EvictionBlocked is the number of bindings whose eviction waits for a
	// placement without the tainted cluster.
	EvictionBlocked prometheus.Gauge
	// EvictionQueueDepth is the number of bindings whose eviction waits
	// for the rate limiter.
	EvictionQueueDepth prometheus.Gauge
}

// Results and schedule types as labels.
const (
	ResultScheduled     = "scheduled"
	ResultError         = "error"
	ResultUnschedulable = "unschedulable"

	ScheduleTypeFirst     = "FirstSchedule"
	ScheduleTypeReconcile = "ReconcileSchedule"
	ScheduleTypeScale     = "ScaleSchedule"
)

// NewScheduler creates the scheduler's collectors and registers them, with
// the build information, on reg.
func NewScheduler(reg prometheus.Registerer) (*Scheduler, error) {
	m := &Scheduler{
		ScheduleAttempts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "karmada_scheduler_schedule_attempts_total",
			Help: "Number of attempts to schedule a binding, by result and schedule type.",
		}, []string{"result", "schedule_type"}),
		E2ESchedulingDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "karmada_scheduler_e2e_scheduling_duration_seconds",
			Help:    "End-to-end scheduling latency of a binding in seconds (algorithm and API writes).",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 15),
		}, []string{"result", "schedule_type"}),
		AlgorithmDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "karmada_scheduler_scheduling_algorithm_duration_seconds",
			Help:    "Scheduling algorithm latency in seconds, by step.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 15),
		}, []string{"schedule_step"}),
		ExtensionPointDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "karmada_scheduler_framework_extension_point_duration_seconds",
			Help:    "Latency of running all plugins of an extension point, in seconds.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 2, 12),
		}, []string{"extension_point", "result"}),
		PluginDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "karmada_scheduler_plugin_execution_duration_seconds",
			Help:    "Latency of one plugin call at one extension point, in seconds (sampled).",
			Buckets: prometheus.ExponentialBuckets(0.00001, 1.5, 20),
		}, []string{"plugin", "extension_point", "result"}),
		PendingBindings: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "scheduler_pending_bindings",
			Help: "Bindings waiting to be scheduled, by queue (active, backoff, unschedulable).",
		}, []string{"queue"}),
		EvictionKind: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "eviction_kind_total",
			Help: "Number of bindings moved off a member cluster, by cluster and resource kind.",
		}, []string{"member_cluster", "resource_kind"}),
		EvictionBlocked: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "eviction_blocked_bindings",
			Help: "Bindings on a cluster they no longer tolerate that stay there because no other placement exists.",
		}),
		EvictionQueueDepth: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "eviction_queue_depth",
			Help: "Bindings whose move off a failed cluster waits for the eviction rate limit.",
		}),
	}
	for _, c := range []prometheus.Collector{
		m.ScheduleAttempts, m.E2ESchedulingDuration, m.AlgorithmDuration,
		m.ExtensionPointDuration, m.PluginDuration, m.PendingBindings, m.EvictionKind, m.EvictionBlocked, m.EvictionQueueDepth,
		NewBuildInfo("mco-scheduler"),
	} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// ObserveExtensionPoint implements the scheduler framework's Observer.
func (m *Scheduler) ObserveExtensionPoint(point, result string, seconds float64) {
	m.ExtensionPointDuration.WithLabelValues(point, result).Observe(seconds)
}

// ObservePlugin implements the scheduler framework's Observer.
func (m *Scheduler) ObservePlugin(plugin, point, result string, seconds float64) {
	m.PluginDuration.WithLabelValues(plugin, point, result).Observe(seconds)
}

// ObserveStep records the duration of one algorithm step.
func (m *Scheduler) ObserveStep(step string, seconds float64) {
	m.AlgorithmDuration.WithLabelValues(step).Observe(seconds)
}
