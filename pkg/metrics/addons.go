package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
)

// Addons holds the add-on collectors (mco's own names). Its methods do
// nothing on a nil *Addons, so that code running without metrics (the
// plugin) may pass none.
type Addons struct {
	Renders        prometheus.Counter
	RenderDuration prometheus.Histogram
	RenderHits     prometheus.Counter
	Fetches        *prometheus.CounterVec
	Clusters       *prometheus.GaugeVec
}

// NewAddons creates the add-on collectors and registers them on reg.
func NewAddons(reg prometheus.Registerer) (*Addons, error) {
	m := &Addons{
		Renders: prometheus.NewCounter(prometheus.CounterOpts{Name: "mco_addon_renders_total",
			Help: "Charts rendered for a distinct (chart, release, values, member capabilities)."}),
		RenderDuration: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "mco_addon_render_duration_seconds",
			Help: "How long rendering a chart took.", Buckets: prometheus.ExponentialBuckets(0.001, 2, 14)}),
		RenderHits: prometheus.NewCounter(prometheus.CounterOpts{Name: "mco_addon_render_cache_hits_total",
			Help: "Renders answered from the cache: the same inputs were rendered before."}),
		Fetches: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "mco_addon_chart_fetches_total",
			Help: "Chart fetches by result: success, error."}, []string{"result"}),
		Clusters: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "mco_addon_clusters",
			Help: "Clusters of each add-on by phase."}, []string{"addon", "phase"}),
	}
	for _, c := range []prometheus.Collector{m.Renders, m.RenderDuration, m.RenderHits, m.Fetches, m.Clusters} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// Rendered counts a render that took d.
func (m *Addons) Rendered(d time.Duration) {
	if m == nil {
		return
	}
	m.Renders.Inc()
	m.RenderDuration.Observe(d.Seconds())
}

// RenderHit counts a render answered from the cache.
func (m *Addons) RenderHit() {
	if m != nil {
		m.RenderHits.Inc()
	}
}

// Fetched counts a chart fetch by its outcome.
func (m *Addons) Fetched(err error) {
	if m != nil {
		m.Fetches.WithLabelValues(Result(err)).Inc()
	}
}

// Observe sets the clusters of add-on name by phase ("" counts as
// Unknown), dropping the phases it no longer has.
func (m *Addons) Observe(name string, clusters []addonsv1alpha1.AddonClusterStatus) {
	if m == nil {
		return
	}
	count := map[string]float64{}
	for _, c := range clusters {
		p := string(c.Phase)
		if p == "" {
			p = "Unknown"
		}
		count[p]++
	}
	for _, p := range addonPhases {
		if n, ok := count[p]; ok {
			m.Clusters.WithLabelValues(name, p).Set(n)
		} else {
			m.Clusters.DeleteLabelValues(name, p)
		}
	}
}

// ForgetAddon drops a deleted add-on's series.
func (m *Addons) ForgetAddon(name string) {
	if m != nil {
		m.Clusters.DeletePartialMatch(prometheus.Labels{"addon": name})
	}
}

// addonPhases are the phases the clusters gauge reports.
var addonPhases = []string{
	string(addonsv1alpha1.PhaseWaitingForDependency), string(addonsv1alpha1.PhaseBlocked), string(addonsv1alpha1.PhaseInstalling),
	string(addonsv1alpha1.PhaseHealthy), string(addonsv1alpha1.PhaseDegraded), string(addonsv1alpha1.PhaseFailed),
	string(addonsv1alpha1.PhaseRemoving), "Unknown",
}
