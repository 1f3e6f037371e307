package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mco-org/mco/hack/internal/benchkit"
)

// result is what one run measured.
type result struct {
	deployments, steadyCount, rawCount, workers int
	steadyRate                                  float64
	settle                                      time.Duration
	members                                     []string

	rawPerSecond                       float64
	steady, full                       []time.Duration
	fullCreate                         time.Duration       // until the last create returned
	fullDuration                       time.Duration       // until the last Deployment was in every member
	fullCPU                            []benchkit.CPUShare // per process, over the full-speed phase
	restCPU                            []benchkit.CPUShare // per process, at rest before the first Deployment
	writes                             []benchkit.Delta
	events                             eventCheck
	rssAPIServer, rssControllerManager float64
	rssScheduler                       float64

	mode           string              // -members
	timing         string              // what -timing means, for the report
	runCPU         []benchkit.CPUShare // per process, from the first create until the writes were counted
	availableAfter time.Duration       // full members: until every template was Available on mco
	statusLags     []time.Duration
	steadyLags     []time.Duration // statusLags of the steady phase's Deployments, below saturation
	memberTimes    []time.Duration // full members: from a Deployment's arrival in a member to Available there
	deletion       deletion

	// With Pull members: latencies per member, and each agent's RSS at
	// rest and once every Deployment was propagated.
	memberFull, memberSteady map[string][]time.Duration
	agentsAtRest, agents     map[string]float64

	// serialization is each of mco's processes' encoding and decoding CPU
	// over the first profileSecs of the full-speed phase.
	serialization map[string]benchkit.Serialization
	profileSecs   int
}

// mcoProcesses are the control plane's processes, whose CPU is judged.
var mcoProcesses = []string{"mco-apiserver", "mco-controller-manager", "mco-scheduler"}

// cpuMsPerDeployment is a process's CPU over the run, in milliseconds per
// Deployment.
func (r *result) cpuMsPerDeployment(process string) float64 {
	return benchkit.MsPer(r.runCPU, process, r.deployments)
}

// controlPlaneCPU is mco's three processes' CPU per Deployment over the run.
func (r *result) controlPlaneCPU() float64 {
	var total float64
	for _, p := range mcoProcesses {
		total += r.cpuMsPerDeployment(p)
	}
	return total
}

// statusWrites are mco-apiserver's writes of a resource's status per unit.
func (r *result) statusWrites(resource string, units int) float64 {
	for _, d := range r.writes {
		if d.Server == mcoServer {
			return d.StatusWrites(resource) / float64(units)
		}
	}
	return 0
}

// summary is the JSON object of the last line.
type summary struct {
	Deployments            int     `json:"deployments"`
	Targets                int     `json:"targets"`
	SteadyP50ms            float64 `json:"steady_p50_ms"`
	SteadyP99ms            float64 `json:"steady_p99_ms"`
	FullDeploymentsPerS    float64 `json:"full_deployments_per_s"`
	WritesPerDeployment    float64 `json:"writes_per_deployment"`
	RawCreatePerS          float64 `json:"raw_create_per_s"`
	MCOAPIServerRSSMB      float64 `json:"mco_apiserver_rss_mb"`
	ControllerManagerRSSMB float64 `json:"controller_manager_rss_mb"`
	SchedulerRSSMB         float64 `json:"scheduler_rss_mb"`

	Members                 string  `json:"members"`
	SteadyRate              float64 `json:"steady_rate_per_s"`
	ControlPlaneCPUms       float64 `json:"control_plane_cpu_ms_per_deployment"`
	APIServerCPUms          float64 `json:"apiserver_cpu_ms_per_deployment"`
	ControllerManagerCPUms  float64 `json:"controller_manager_cpu_ms_per_deployment"`
	SchedulerCPUms          float64 `json:"scheduler_cpu_ms_per_deployment"`
	WorkStatusPerWork       float64 `json:"work_status_writes_per_work"`
	BindingStatusPerDeploy  float64 `json:"binding_status_writes_per_deployment"`
	TemplateStatusPerDeploy float64 `json:"template_status_writes_per_deployment"`
	StatusLagP99ms          float64 `json:"status_lag_p99_ms,omitempty"`
	SteadyStatusLagP99ms    float64 `json:"steady_status_lag_p99_ms,omitempty"`
	AvailableAfterS         float64 `json:"available_after_s,omitempty"`
	DeleteNamespaceMCOs     float64 `json:"delete_namespace_mco_s"`
	DeleteNamespaceMembersS float64 `json:"delete_namespace_members_s"`

	// With -pull: per member, the steady phase's p99 from create on mco to
	// presence there; each agent's RSS at rest and at the end, and its CPU.
	MemberSteadyP99ms map[string]float64 `json:"member_steady_p99_ms,omitempty"`
	AgentRSSRestMB    map[string]float64 `json:"agent_rss_rest_mb,omitempty"`
	AgentRSSMB        map[string]float64 `json:"agent_rss_mb,omitempty"`
	AgentCPURestCores float64            `json:"agent_cpu_rest_cores,omitempty"`
	AgentCPUms        float64            `json:"agent_cpu_ms_per_deployment,omitempty"`

	// Per process: encoding and decoding CPU by content type in the
	// full-speed profile, and the profile's whole ("sampled"), in ms.
	SerializationCPUms map[string]map[string]float64 `json:"serialization_cpu_ms,omitempty"`
}

func (r *result) fullPerSecond() float64 {
	if len(r.full) == 0 || r.fullDuration <= 0 {
		return 0
	}
	return float64(len(r.full)) / r.fullDuration.Seconds()
}

// writesPerDeployment counts what mco writes per Deployment: every write
// but the benchmark's own create of each Deployment (the user's write,
// outside the budget of 6 + 3n).
func (r *result) writesPerDeployment() float64 {
	var total float64
	for _, d := range r.writes {
		total += d.Total
	}
	return (total - float64(r.deployments)) / float64(r.deployments)
}

func (r *result) summary() summary {
	return summary{
		Deployments:            r.deployments,
		Targets:                len(r.members),
		SteadyP50ms:            benchkit.Round(benchkit.Ms(benchkit.Percentile(r.steady, 0.50)), 1),
		SteadyP99ms:            benchkit.Round(benchkit.Ms(benchkit.Percentile(r.steady, 0.99)), 1),
		FullDeploymentsPerS:    benchkit.Round(r.fullPerSecond(), 1),
		WritesPerDeployment:    benchkit.Round(r.writesPerDeployment(), 2),
		RawCreatePerS:          benchkit.Round(r.rawPerSecond, 1),
		MCOAPIServerRSSMB:      benchkit.Round(r.rssAPIServer, 1),
		ControllerManagerRSSMB: benchkit.Round(r.rssControllerManager, 1),
		SchedulerRSSMB:         benchkit.Round(r.rssScheduler, 1),

		Members:                 r.mode,
		SteadyRate:              benchkit.Round(r.steadyRate, 1),
		ControlPlaneCPUms:       benchkit.Round(r.controlPlaneCPU(), 1),
		APIServerCPUms:          benchkit.Round(r.cpuMsPerDeployment("mco-apiserver"), 1),
		ControllerManagerCPUms:  benchkit.Round(r.cpuMsPerDeployment("mco-controller-manager"), 1),
		SchedulerCPUms:          benchkit.Round(r.cpuMsPerDeployment("mco-scheduler"), 2),
		WorkStatusPerWork:       benchkit.Round(r.statusWrites("works", r.deployments*len(r.members)), 2),
		BindingStatusPerDeploy:  benchkit.Round(r.statusWrites("resourcebindings", r.deployments), 2),
		TemplateStatusPerDeploy: benchkit.Round(r.statusWrites("deployments", r.deployments), 2),
		StatusLagP99ms:          benchkit.Round(benchkit.Ms(benchkit.Percentile(r.statusLags, 0.99)), 1),
		SteadyStatusLagP99ms:    benchkit.Round(benchkit.Ms(benchkit.Percentile(r.steadyLags, 0.99)), 1),
		AvailableAfterS:         benchkit.Round(r.availableAfter.Seconds(), 1),
		DeleteNamespaceMCOs:     benchkit.Round(r.deletion.onMCO.Seconds(), 1),
		DeleteNamespaceMembersS: benchkit.Round(r.deletion.inMembers.Seconds(), 1),

		MemberSteadyP99ms: r.memberP99(r.memberSteady),
		AgentRSSRestMB:    roundAll(r.agentsAtRest),
		AgentRSSMB:        roundAll(r.agents),
		AgentCPURestCores: benchkit.Round(cores(r.restCPU, "mco-agent"), 3),
		AgentCPUms:        benchkit.Round(r.cpuMsPerDeployment("mco-agent"), 1),

		SerializationCPUms: benchkit.SerializationMs(r.serialization),
	}
}

// memberP99 is each member's p99 latency in ms, nil without Pull members.
func (r *result) memberP99(by map[string][]time.Duration) map[string]float64 {
	if len(r.agents) == 0 {
		return nil
	}
	out := map[string]float64{}
	for m, d := range by {
		out[m] = benchkit.Round(benchkit.Ms(benchkit.Percentile(d, 0.99)), 1)
	}
	return out
}

func roundAll(m map[string]float64) map[string]float64 {
	if len(m) == 0 {
		return nil
	}
	out := map[string]float64{}
	for k, v := range m {
		out[k] = benchkit.Round(v, 1)
	}
	return out
}

// cores is a process's CPU share, 0 when it did not run.
func cores(shares []benchkit.CPUShare, name string) float64 {
	for _, s := range shares {
		if s.Name == name {
			return s.Cores
		}
	}
	return 0
}

// print writes the human-readable report, then the JSON summary as the
// last line.
func (r *result) print(w io.Writer) error {
	s := r.summary()
	n := len(r.members)
	p := func(format string, a ...any) { fmt.Fprintf(w, format+"\n", a...) }
	p("")
	p("mco propagation: %d Deployments (3 replicas each) in namespace bench, Divided 1:1:1 over %s;", r.deployments, strings.Join(r.members, ", "))
	if r.mode == membersFull {
		p("members run kube-controller-manager, kube-scheduler and kwok nodes: pods come and go, and their status flows back to mco.")
	} else {
		p("members are bare kube-apiservers (nothing acts on what arrives): only mco's path is measured.")
	}
	p("%s.", r.timing)
	p("")
	p("raw create rate of mco-apiserver   C = %.1f objects/s (%d ConfigMaps, %d workers, QPS %d, burst %d)", r.rawPerSecond, r.rawCount, r.workers, benchkit.ClientQPS, benchkit.ClientBurst)
	if len(r.full) > 0 {
		p("full speed     %4d, %d workers  %.1f Deployments/s (creates done in %s, all in every member after %s); %s",
			len(r.full), r.workers, r.fullPerSecond(), r.fullCreate.Round(time.Millisecond), r.fullDuration.Round(time.Millisecond), benchkit.LatencyLine(r.full))
	}
	if len(r.steady) > 0 {
		p("steady phase   %4d at %.1f/s    create -> in every member: %s", len(r.steady), r.steadyRate, benchkit.LatencyLine(r.steady))
	}
	if len(r.agents) > 0 {
		for _, m := range r.members {
			p("  %-8s full speed: %s; steady: %s", m, benchkit.LatencyLine(r.memberFull[m]), benchkit.LatencyLine(r.memberSteady[m]))
		}
		for _, m := range r.members {
			if rest, ok := r.agentsAtRest[m]; ok {
				p("  mco-agent of %s (Pull): RSS %.1f MiB at rest, %.1f MiB with %d Works; CPU %.3f cores at rest, %.1f ms per Deployment over the run",
					m, rest, r.agents[m], r.deployments, cores(r.restCPU, "mco-agent"), r.cpuMsPerDeployment("mco-agent"))
			}
		}
	}
	if r.mode == membersFull {
		p("every template Available on mco %s after the first create; lag of mco's status behind the last member's Available: %s",
			r.availableAfter.Round(time.Millisecond), benchkit.LatencyLine(r.statusLags))
		p("the same lag for the steady phase's Deployments (below saturation): %s", benchkit.LatencyLine(r.steadyLags))
		p("members' own pace, from a Deployment's arrival to Available there: %s", benchkit.LatencyLine(r.memberTimes))
	}
	if len(r.fullCPU) > 0 {
		p("CPU over the full-speed phase (cores): %s", benchkit.CPULine(r.fullCPU))
		p("CPU per Deployment over the full-speed phase (ms): %s", benchkit.CPUPerUnit(r.fullCPU, len(r.full)))
	}
	if len(r.serialization) > 0 {
		p("encoding and decoding, first %d s of the full-speed phase (CPU profiles):", r.profileSecs)
		for _, line := range benchkit.SerializationLines(r.serialization) {
			p("  %s", line)
		}
	}
	if len(r.restCPU) > 0 {
		p("CPU at rest, before the first Deployment (cores): %s", benchkit.CPULine(r.restCPU))
	}
	if len(r.runCPU) > 0 {
		p("CPU per Deployment over the whole run, status included (ms): %s", benchkit.CPUPerUnit(r.runCPU, r.deployments))
	}
	p("status writes on mco: %.2f per Work, %.2f binding status and %.2f template status per Deployment",
		s.WorkStatusPerWork, s.BindingStatusPerDeploy, s.TemplateStatusPerDeploy)
	p("")
	p("writes per Deployment (apiserver_request_total POST, PUT, PATCH, APPLY, DELETE; Events and Leases excluded;")
	p("from before the first Deployment to %s after the last reached every member and mco's Events stopped coming; background writes included;", r.settle)
	p(" the total leaves out the benchmark's own create of each Deployment):")
	for _, d := range r.writes {
		p("  %-8s %6.2f   %s", d.Server, d.Total/float64(r.deployments), benchkit.Largest(d.ByKey, 14))
	}
	p("  %-8s %6.2f", "total", r.writesPerDeployment())
	for _, d := range r.writes {
		if len(d.Refused) > 0 {
			p("  refused on %s (counted above): %s", d.Server, benchkit.Largest(d.Refused, 8))
		}
	}
	for _, d := range r.writes {
		if d.Events > 0 {
			p("  Events written on %s: %.2f per Deployment (outside the budget)", d.Server, d.Events/float64(r.deployments))
		}
	}
	p("  %s", r.events)
	p("reads per Deployment (GET and LIST; watches left out):")
	for _, d := range r.writes {
		var total float64
		for _, v := range d.Reads {
			total += v
		}
		p("  %-8s %6.2f   %s", d.Server, total/float64(r.deployments), benchkit.Largest(d.Reads, 8))
	}
	p("")
	p("memory at the end (VmRSS): mco-apiserver %.1f MiB, mco-controller-manager %.1f MiB, mco-scheduler %.1f MiB", r.rssAPIServer, r.rssControllerManager, r.rssScheduler)
	p("deleting namespace bench: gone from mco after %s, from every member after %s (templates gone from mco after %s, bindings after %s, the members' Deployments after %s)",
		r.deletion.figure(r.deletion.onMCO), r.deletion.figure(r.deletion.inMembers),
		r.deletion.figure(r.deletion.templatesGone), r.deletion.figure(r.deletion.bindingsGone), r.deletion.figure(r.deletion.memberObjectsGone))
	p("")
	p("targets (judged, not enforced):")
	if r.mode == membersBare {
		maxWrites := float64(6 + 3*n)
		p("  %s  writes per Deployment %.2f <= 6 + 3n = %.0f (n = %d targets)", benchkit.Verdict(s.WritesPerDeployment <= maxWrites), s.WritesPerDeployment, maxWrites, n)
	}
	if len(r.steady) > 0 {
		p("  %s  steady p99 %.1f ms < 300 ms (at %.1f/s, half the full-speed rate unless -steady-rate says)", benchkit.Verdict(s.SteadyP99ms < 300), s.SteadyP99ms, r.steadyRate)
	}
	if r.mode == membersFull {
		p("  %s  control-plane CPU per Deployment %.1f ms <= 90 (stretch 70)", benchkit.Verdict(s.ControlPlaneCPUms <= 90), s.ControlPlaneCPUms)
		p("  %s  mco-scheduler CPU per binding %.2f ms <= 3", benchkit.Verdict(s.SchedulerCPUms <= 3), s.SchedulerCPUms)
		p("  %s  Work status writes per Work %.2f <= 1.3", benchkit.Verdict(s.WorkStatusPerWork <= 1.3), s.WorkStatusPerWork)
		p("  %s  binding status writes per Deployment %.2f <= 1.5", benchkit.Verdict(s.BindingStatusPerDeploy <= 1.5), s.BindingStatusPerDeploy)
		p("  %s  template status writes per Deployment %.2f <= 1.2", benchkit.Verdict(s.TemplateStatusPerDeploy <= 1.2), s.TemplateStatusPerDeploy)
		p("  %s  status lag p99 %.1f ms <= 2000 ms in the steady phase (%.1f ms over the whole run, full speed included)", benchkit.Verdict(s.SteadyStatusLagP99ms <= 2000), s.SteadyStatusLagP99ms, s.StatusLagP99ms)
		p("  %s  namespace deleted everywhere in %s <= 120 s", benchkit.Verdict(r.deletion.inMembers > 0 && s.DeleteNamespaceMembersS <= 120), r.deletion.figure(r.deletion.inMembers))
	}
	if len(r.full) > 0 && r.mode == membersBare {
		product := r.fullPerSecond() * r.writesPerDeployment()
		p("  %s  full Deployments/s x writes per Deployment = %.1f >= 0.5 x C = %.1f", benchkit.Verdict(product >= 0.5*r.rawPerSecond), product, 0.5*r.rawPerSecond)
	}
	line, err := json.Marshal(s)
	if err != nil {
		return err
	}
	p("%s", line)
	return nil
}
