package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"k8s.io/client-go/kubernetes"

	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// mcoServer names mco-apiserver among the scraped servers.
const mcoServer = "mco"

// writeVerbs are the verbs of apiserver_request_total that write.
var writeVerbs = map[string]bool{"POST": true, "PUT": true, "PATCH": true, "APPLY": true, "DELETE": true, "DELETECOLLECTION": true}

// readVerbs are the verbs of apiserver_request_total that read once (watches
// are long-running and left out).
var readVerbs = map[string]bool{"GET": true, "LIST": true}

// refusedPrefix marks the keys of writes refused (a response other than
// 2xx, by code), which are counted among the writes as well.
const refusedPrefix = "refused "

// readPrefix marks the keys of reads among a server's counts.
const readPrefix = "read "

// counts are one server's write requests by "VERB resource[/subresource]",
// Leases excluded (the heartbeats of leader election, of the members'
// kube-apiservers and of each Cluster's health come with time, not with
// Deployments) and Events summed under eventKey.
type counts map[string]float64

// scrapeAll reads apiserver_request_total from mco-apiserver and every
// member's kube-apiserver, keyed by server.
func (b *bench) scrapeAll(ctx context.Context) (map[string]counts, error) {
	out := map[string]counts{}
	var err error
	if out[mcoServer], err = scrapeWrites(ctx, b.kube); err != nil {
		return nil, fmt.Errorf("metrics of mco-apiserver: %w", err)
	}
	for _, name := range b.names {
		if out[name], err = scrapeWrites(ctx, b.members[name]); err != nil {
			return nil, fmt.Errorf("metrics of %s: %w", name, err)
		}
	}
	return out, nil
}

// scrapeWrites GETs /metrics with the admin identity and sums the write
// requests of apiserver_request_total (every response code).
func scrapeWrites(ctx context.Context, client kubernetes.Interface) (counts, error) {
	raw, err := client.CoreV1().RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
	if err != nil {
		return nil, err
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	family, ok := families["apiserver_request_total"]
	if !ok {
		return nil, fmt.Errorf("no apiserver_request_total")
	}
	out := counts{}
	for _, m := range family.GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		verb := labels["verb"]
		if !writeVerbs[verb] && !readVerbs[verb] || labels["resource"] == "leases" {
			continue
		}
		key := verb + " " + labels["resource"]
		if readVerbs[verb] {
			key = readPrefix + key
		}
		if labels["resource"] == "events" && writeVerbs[verb] {
			key = eventKey
		}
		if sub := labels["subresource"]; sub != "" {
			key += "/" + sub
		}
		out[key] += m.GetCounter().GetValue()
		if code := labels["code"]; writeVerbs[verb] && !strings.HasPrefix(code, "2") {
			out[refusedPrefix+key+" "+code] += m.GetCounter().GetValue()
		}
	}
	return out, nil
}

// eventKey collects the writes of Events, which are reported apart: they
// cost the servers, but are outside the write budget.
const eventKey = "events"

// writeDelta is one server's writes between two scrapes, Events apart.
type writeDelta struct {
	server string
	total  float64
	byKey  counts
	events float64
	reads  counts // GETs and LISTs, which cost the servers but are no writes
	// refused are the writes (Events too) that were refused, by code.
	refused counts
}

// diffWrites returns the writes between two scrapes per server, mco first.
func diffWrites(before, after map[string]counts) []writeDelta {
	servers := make([]string, 0, len(after))
	for s := range after {
		servers = append(servers, s)
	}
	sort.Slice(servers, func(i, j int) bool {
		if (servers[i] == mcoServer) != (servers[j] == mcoServer) {
			return servers[i] == mcoServer
		}
		return servers[i] < servers[j]
	})
	var out []writeDelta
	for _, s := range servers {
		d := writeDelta{server: s, byKey: counts{}, reads: counts{}, refused: counts{}}
		for key, v := range after[s] {
			delta := v - before[s][key]
			switch {
			case delta <= 0:
			case key == eventKey:
				d.events += delta
			case strings.HasPrefix(key, refusedPrefix):
				d.refused[strings.TrimPrefix(key, refusedPrefix)] = delta
			case strings.HasPrefix(key, readPrefix):
				d.reads[strings.TrimPrefix(key, readPrefix)] = delta
			default:
				d.byKey[key] = delta
				d.total += delta
			}
		}
		out = append(out, d)
	}
	return out
}

// rssMiB reads the resident set size of a process from /proc.
func rssMiB(p *localcluster.Process) (float64, error) {
	if !p.Running() {
		return 0, fmt.Errorf("%s (pid %d) is not running; see %s", p.Name, p.PID, p.Log)
	}
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", p.PID))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) == 3 && fields[0] == "VmRSS:" && fields[2] == "kB" {
			kb, err := strconv.ParseFloat(fields[1], 64)
			if err != nil {
				return 0, fmt.Errorf("VmRSS of %s: %w", p.Name, err)
			}
			return kb / 1024, nil
		}
	}
	return 0, fmt.Errorf("no VmRSS for %s (pid %d)", p.Name, p.PID)
}
