package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
)

// Agent holds mco-agent's own collectors, next to the controllers' ones
// it shares with mco-controller-manager.
type Agent struct {
	// Requests counts the agent's requests to mco-apiserver by HTTP code
	// ("error" when no answer came).
	Requests *prometheus.CounterVec
	// Connected is 1 while the agent works from mco's current Works, 0
	// while it waits for mco.
	Connected prometheus.Gauge
	// Sessions counts the times the agent connected to mco and started
	// its controllers.
	Sessions prometheus.Counter
}

// NewAgent creates mco-agent's collectors and registers them on reg.
func NewAgent(reg prometheus.Registerer) (*Agent, error) {
	m := &Agent{
		Requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mco_agent_requests_total",
			Help: "Requests of mco-agent to mco-apiserver, by HTTP code (\"error\" when no answer came).",
		}, []string{"code"}),
		Connected: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "mco_agent_connected",
			Help: "1 while mco-agent works from mco's Works, 0 while it waits for mco-apiserver.",
		}),
		Sessions: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "mco_agent_sessions_total",
			Help: "Times mco-agent reached mco-apiserver and started its controllers.",
		}),
	}
	for _, c := range []prometheus.Collector{m.Requests, m.Connected, m.Sessions} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}
