package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/client-go/util/workqueue"
)

// workqueueMetrics are the work queues' collectors, under the names and
// the name label Kubernetes' controller managers use.
type workqueueMetrics struct {
	depth, unfinished, longest *prometheus.GaugeVec
	adds, retries              *prometheus.CounterVec
	latency, work              *prometheus.HistogramVec
}

// RegisterWorkqueue registers the collectors of every work queue the
// process creates from now on (depth, adds, retries, time waiting and
// working) on reg. Only a process's first call has an effect on the
// queues; call it before creating controllers.
func RegisterWorkqueue(reg prometheus.Registerer) error {
	const subsystem = "workqueue"
	buckets := prometheus.ExponentialBuckets(10e-9, 10, 10)
	labels := []string{"name"}
	m := &workqueueMetrics{
		depth: prometheus.NewGaugeVec(prometheus.GaugeOpts{Subsystem: subsystem, Name: "depth",
			Help: "Current depth of the work queue."}, labels),
		adds: prometheus.NewCounterVec(prometheus.CounterOpts{Subsystem: subsystem, Name: "adds_total",
			Help: "Adds handled by the work queue."}, labels),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Subsystem: subsystem, Name: "queue_duration_seconds",
			Help: "How long an item stays in the work queue before it is taken.", Buckets: buckets}, labels),
		work: prometheus.NewHistogramVec(prometheus.HistogramOpts{Subsystem: subsystem, Name: "work_duration_seconds",
			Help: "How long processing an item from the work queue takes.", Buckets: buckets}, labels),
		unfinished: prometheus.NewGaugeVec(prometheus.GaugeOpts{Subsystem: subsystem, Name: "unfinished_work_seconds",
			Help: "Seconds of work in progress not yet observed by work_duration; large values mean stuck workers."}, labels),
		longest: prometheus.NewGaugeVec(prometheus.GaugeOpts{Subsystem: subsystem, Name: "longest_running_processor_seconds",
			Help: "How long the longest-running worker of the queue has been at its item."}, labels),
		retries: prometheus.NewCounterVec(prometheus.CounterOpts{Subsystem: subsystem, Name: "retries_total",
			Help: "Retries handled by the work queue."}, labels),
	}
	for _, c := range []prometheus.Collector{m.depth, m.adds, m.latency, m.work, m.unfinished, m.longest, m.retries} {
		if err := reg.Register(c); err != nil {
			return err
		}
	}
	workqueue.SetProvider(m)
	return nil
}

func (m *workqueueMetrics) NewDepthMetric(name string) workqueue.GaugeMetric {
	return m.depth.WithLabelValues(name)
}

func (m *workqueueMetrics) NewAddsMetric(name string) workqueue.CounterMetric {
	return m.adds.WithLabelValues(name)
}

func (m *workqueueMetrics) NewLatencyMetric(name string) workqueue.HistogramMetric {
	return m.latency.WithLabelValues(name)
}

func (m *workqueueMetrics) NewWorkDurationMetric(name string) workqueue.HistogramMetric {
	return m.work.WithLabelValues(name)
}

func (m *workqueueMetrics) NewUnfinishedWorkSecondsMetric(name string) workqueue.SettableGaugeMetric {
	return m.unfinished.WithLabelValues(name)
}

func (m *workqueueMetrics) NewLongestRunningProcessorSecondsMetric(name string) workqueue.SettableGaugeMetric {
	return m.longest.WithLabelValues(name)
}

func (m *workqueueMetrics) NewRetriesMetric(name string) workqueue.CounterMetric {
	return m.retries.WithLabelValues(name)
}
