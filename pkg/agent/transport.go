package agent

import (
	"net/http"
	"strconv"
	"sync/atomic"

	"k8s.io/client-go/rest"

	"github.com/mco-org/mco/pkg/metrics"
)

// watchMCO wraps cfg's transport to count every request to mco-apiserver
// by its answer, and to note when mco refuses the agent's credential.
func watchMCO(cfg *rest.Config, m *metrics.Agent, refused *atomic.Bool) {
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return &counting{next: rt, metrics: m, refused: refused}
	})
}

type counting struct {
	next    http.RoundTripper
	metrics *metrics.Agent
	refused *atomic.Bool
}

func (c *counting) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := c.next.RoundTrip(req)
	if err != nil {
		c.metrics.Requests.WithLabelValues("error").Inc()
		return resp, err
	}
	c.metrics.Requests.WithLabelValues(strconv.Itoa(resp.StatusCode)).Inc()
	if resp.StatusCode == http.StatusUnauthorized {
		c.refused.Store(true)
	}
	return resp, nil
}
