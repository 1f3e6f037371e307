package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mco-org/mco/hack/internal/benchkit"
)

// mcoProcesses are the control plane's processes, in the order of the
// memory figures.
var mcoProcesses = []string{"mco-apiserver", "mco-controller-manager", "mco-scheduler"}

// peakRSSTarget is the most mco's three processes may hold together,
// the embedded etcd's mapped database left out; peakRSSStretch is the
// stretch goal.
const (
	peakRSSTarget  = 2048
	peakRSSStretch = 1536
)

// result is what one run measured.
type result struct {
	o *options

	created                         time.Duration // until the last create returned
	propagated                      time.Duration // until the last object was in every member it needs
	deploymentLatency               []time.Duration
	configMapLatency                []time.Duration
	deploymentsDone, configMapsDone time.Time
	deploymentSpread                []int // Deployments per member
	propagateCPU, deleteCPU         []benchkit.CPUShare
	writes                          []benchkit.Delta
	rssAfterPropagation, peakRSS    []float64 // MiB, in mcoProcesses' order
	// sampled are the processes' peaks read every second from smaps, the
	// embedded etcd's mapped database apart; etcdPeakRSS is the external
	// etcd's VmHWM (-external-etcd).
	sampled     []benchkit.MemoryPeak
	etcdPeakRSS float64
	deletion    deletion
	// serialization is mco's processes' encoding and decoding CPU over
	// the first -cpu-profile of the propagation.
	serialization map[string]benchkit.Serialization
}

func (r *result) objects() int { return r.o.deployments + r.o.configMaps }

// writesPerObject counts what a server was written per object, leaving
// out the benchmark's own creates on mco.
func (r *result) writesPerObject(server string) float64 {
	for _, d := range r.writes {
		if d.Server != server {
			continue
		}
		total := d.Total
		if server == mcoServer {
			total -= float64(r.objects())
		}
		return total / float64(r.objects())
	}
	return 0
}

// membersWritesPerObject sums the members' servers.
func (r *result) membersWritesPerObject() float64 {
	var total float64
	for _, d := range r.writes {
		if d.Server != mcoServer {
			total += d.Total
		}
	}
	return total / float64(r.objects())
}

func (r *result) controlPlaneMs(shares []benchkit.CPUShare) float64 {
	var total float64
	for _, p := range mcoProcesses {
		total += benchkit.MsPer(shares, p, r.objects())
	}
	return total
}

// lessMapped is the sum of the processes' sampled peaks without the
// embedded etcd's mapped database, and that database's largest resident
// part.
func (r *result) lessMapped() (anonymous, mapped float64) {
	for _, p := range r.sampled {
		anonymous += p.Anonymous
		mapped += p.Mapped
	}
	return anonymous, mapped
}

func sum(v []float64) float64 {
	var total float64
	for _, x := range v {
		total += x
	}
	return total
}

// summary is the JSON object of the last line.
type summary struct {
	Members             int     `json:"members"`
	Deployments         int     `json:"deployments"`
	ConfigMaps          int     `json:"configmaps"`
	PropagateS          float64 `json:"propagate_s"`
	ObjectsPerS         float64 `json:"objects_per_s"`
	DeploymentP99ms     float64 `json:"deployment_p99_ms"`
	ConfigMapP99ms      float64 `json:"configmap_p99_ms"`
	DeleteS             float64 `json:"delete_s"`
	DeleteMCOs          float64 `json:"delete_namespace_mco_s"`
	PeakRSSMB           float64 `json:"peak_rss_mb"`
	APIServerPeakRSSMB  float64 `json:"apiserver_peak_rss_mb"`
	ControllerPeakRSSMB float64 `json:"controller_manager_peak_rss_mb"`
	SchedulerPeakRSSMB  float64 `json:"scheduler_peak_rss_mb"`
	// Sampled every second: the three together without the embedded
	// etcd's mapped database, and that database's resident pages.
	PeakRSSLessEtcdMmapMB float64 `json:"peak_rss_less_etcd_mmap_mb"`
	EtcdMmapPeakMB        float64 `json:"etcd_mmap_peak_mb"`
	ExternalEtcd          bool    `json:"external_etcd,omitempty"`
	ExternalEtcdPeakRSSMB float64 `json:"external_etcd_peak_rss_mb,omitempty"`
	MCOWritesPerObject    float64 `json:"mco_writes_per_object"`
	MemberWritesPerObject float64 `json:"member_writes_per_object"`
	PropagateCPUms        float64 `json:"control_plane_cpu_ms_per_object"`
	DeleteCPUms           float64 `json:"control_plane_delete_cpu_ms_per_object"`
	// Per process: encoding and decoding CPU by content type in the
	// propagation's CPU profile, and the profile's whole ("sampled"), in ms.
	SerializationCPUms map[string]map[string]float64 `json:"serialization_cpu_ms,omitempty"`
}

func (r *result) summary() summary {
	s := summary{
		Members:               r.o.members,
		Deployments:           r.o.deployments,
		ConfigMaps:            r.o.configMaps,
		PropagateS:            benchkit.Round(r.propagated.Seconds(), 1),
		DeploymentP99ms:       benchkit.Round(benchkit.Ms(benchkit.Percentile(r.deploymentLatency, 0.99)), 1),
		ConfigMapP99ms:        benchkit.Round(benchkit.Ms(benchkit.Percentile(r.configMapLatency, 0.99)), 1),
		DeleteS:               benchkit.Round(r.deletion.done().Seconds(), 1),
		DeleteMCOs:            benchkit.Round(r.deletion.onMCO.Seconds(), 1),
		PeakRSSMB:             benchkit.Round(sum(r.peakRSS), 1),
		MCOWritesPerObject:    benchkit.Round(r.writesPerObject(mcoServer), 2),
		MemberWritesPerObject: benchkit.Round(r.membersWritesPerObject(), 2),
		PropagateCPUms:        benchkit.Round(r.controlPlaneMs(r.propagateCPU), 1),
		DeleteCPUms:           benchkit.Round(r.controlPlaneMs(r.deleteCPU), 1),
		SerializationCPUms:    benchkit.SerializationMs(r.serialization),
	}
	anonymous, mapped := r.lessMapped()
	s.PeakRSSLessEtcdMmapMB, s.EtcdMmapPeakMB = benchkit.Round(anonymous, 1), benchkit.Round(mapped, 1)
	s.ExternalEtcd, s.ExternalEtcdPeakRSSMB = r.o.externalEtcd, benchkit.Round(r.etcdPeakRSS, 1)
	if r.propagated > 0 {
		s.ObjectsPerS = benchkit.Round(float64(r.objects())/r.propagated.Seconds(), 1)
	}
	if len(r.peakRSS) == len(mcoProcesses) {
		s.APIServerPeakRSSMB = benchkit.Round(r.peakRSS[0], 1)
		s.ControllerPeakRSSMB = benchkit.Round(r.peakRSS[1], 1)
		s.SchedulerPeakRSSMB = benchkit.Round(r.peakRSS[2], 1)
	}
	return s
}

// print writes the human-readable report, then the JSON summary as the
// last line.
func (r *result) print(w io.Writer) error {
	s := r.summary()
	n := r.objects()
	p := func(format string, a ...any) { fmt.Fprintf(w, format+"\n", a...) }
	p("")
	p("mco at scale: %d bare members (kube-apiservers on one etcd, nodes that are objects only); %d Deployments (3 replicas) divided over %d members each by a spread constraint, %d ConfigMaps duplicated to all",
		r.o.members, r.o.deployments, r.o.spread, r.o.configMaps)
	p("%s.", benchkit.TimingNote(r.o.timing))
	p("")
	p("propagation    %d objects, %d workers: creates done in %s, every object in its members after %s (%.1f objects/s)",
		n, r.o.workers, r.created.Round(time.Millisecond), r.propagated.Round(time.Millisecond), s.ObjectsPerS)
	p("  Deployments, create -> in its %d members: %s", r.o.spread, benchkit.LatencyLine(r.deploymentLatency))
	p("  ConfigMaps, create -> in all %d members: %s", r.o.members, benchkit.LatencyLine(r.configMapLatency))
	p("  Deployments per member (the scheduler's choice): %s", r.spreadLine())
	p("CPU per object while propagating (ms): %s", benchkit.CPUPerUnit(r.propagateCPU, n))
	p("CPU per object while deleting (ms): %s", benchkit.CPUPerUnit(r.deleteCPU, n))
	if len(r.serialization) > 0 {
		p("encoding and decoding, first %s of the propagation (CPU profiles):", r.o.cpuProfile)
		for _, line := range benchkit.SerializationLines(r.serialization) {
			p("  %s", line)
		}
	}
	p("")
	p("writes per object (apiserver_request_total POST, PUT, PATCH, APPLY, DELETE; Events and Leases excluded; mco's leaves out the benchmark's own creates):")
	for _, d := range r.writes {
		if d.Server == mcoServer {
			p("  %-8s %6.2f   %s", d.Server, r.writesPerObject(mcoServer), benchkit.Largest(d.ByKey, 8))
		}
	}
	p("  %-8s %6.2f   (all %d members together)", "members", r.membersWritesPerObject(), r.o.members)
	for _, d := range r.writes {
		if d.Server == mcoServer && d.Events > 0 {
			p("  Events written on mco: %.2f per object (outside the count)", d.Events/float64(n))
		}
		if len(d.Refused) > 0 {
			p("  refused on %s (counted above): %s", d.Server, benchkit.Largest(d.Refused, 8))
		}
	}
	p("")
	p("memory (MiB, %s): after propagating %s; peak (VmHWM) %s, together %.1f",
		strings.Join(mcoProcesses, ", "), floats(r.rssAfterPropagation), floats(r.peakRSS), s.PeakRSSMB)
	p("  sampled every second, the embedded etcd's mapped database (%s) apart: %s; together %.1f, the database's resident pages at most %.1f",
		benchkit.EtcdDatabase, r.sampledLine(), s.PeakRSSLessEtcdMmapMB, s.EtcdMmapPeakMB)
	if r.o.externalEtcd {
		p("  mco-apiserver on an etcd process of its own, whose peak (VmHWM) was %.1f", s.ExternalEtcdPeakRSSMB)
	}
	p("deleting namespace %s: templates gone from mco after %s, bindings after %s, the namespace after %s; no copy left in any member after %s",
		r.o.namespace, r.deletion.figure(r.deletion.templatesGone), r.deletion.figure(r.deletion.bindingsGone),
		r.deletion.figure(r.deletion.onMCO), r.deletion.figure(r.deletion.copiesGone))
	p("")
	p("targets (judged, not enforced):")
	p("  %s  peak RSS of mco's three processes together, etcd's mapped database apart, %.1f MiB <= %d MiB (stretch %d: %s)",
		benchkit.Verdict(s.PeakRSSLessEtcdMmapMB <= peakRSSTarget), s.PeakRSSLessEtcdMmapMB, peakRSSTarget, peakRSSStretch,
		benchkit.Verdict(s.PeakRSSLessEtcdMmapMB <= peakRSSStretch))
	line, err := json.Marshal(s)
	if err != nil {
		return err
	}
	p("%s", line)
	return nil
}

func (r *result) spreadLine() string {
	var parts []string
	for i, c := range r.deploymentSpread {
		parts = append(parts, fmt.Sprintf("%s %d", memberName(i+1), c))
	}
	return strings.Join(parts, ", ")
}

func (r *result) sampledLine() string {
	var parts []string
	for _, p := range r.sampled {
		parts = append(parts, fmt.Sprintf("%s %.1f", p.Name, p.Anonymous))
	}
	return strings.Join(parts, ", ")
}

func floats(v []float64) string {
	var parts []string
	for _, x := range v {
		parts = append(parts, fmt.Sprintf("%.1f", x))
	}
	return strings.Join(parts, ", ")
}
