package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/mco-org/mco/pkg/version"
)

// NewBuildInfo returns mco_build_info{component, git_version, go_version} = 1.
func NewBuildInfo(component string) prometheus.Collector {
	v := version.Get()
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "mco_build_info",
		Help:        "Build information of the mco component; always 1.",
		ConstLabels: prometheus.Labels{"component": component, "git_version": v.GitVersion, "go_version": v.GoVersion},
	})
	g.Set(1)
	return g
}
