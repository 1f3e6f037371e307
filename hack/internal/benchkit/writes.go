package benchkit

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"k8s.io/client-go/kubernetes"
)

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

// EventKey collects the writes of Events, which are reported apart: they
// cost the servers, but are outside the write budget.
const EventKey = "events"

// Counts are one server's requests by "VERB resource[/subresource]",
// Leases excluded (the heartbeats of leader election, of the members'
// kube-apiservers and of each Cluster's health come with time, not with
// workloads) and Events' writes summed under EventKey.
type Counts map[string]float64

// Scrape GETs /metrics with the client's identity and sums the requests of
// apiserver_request_total (every response code).
func Scrape(ctx context.Context, client kubernetes.Interface) (Counts, error) {
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
	out := Counts{}
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
			key = EventKey
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

// Delta is one server's requests between two scrapes.
type Delta struct {
	Server string
	// Total sums ByKey: the writes, Events apart.
	Total  float64
	ByKey  Counts
	Events float64
	// Reads are the GETs and LISTs, which cost the servers but are no writes.
	Reads Counts
	// Refused are the writes (Events too) that were refused, by code.
	Refused Counts
}

// Diff returns the requests between two scrapes per server, first (mco's
// server) ahead of the others in name order.
func Diff(before, after map[string]Counts, first string) []Delta {
	servers := make([]string, 0, len(after))
	for s := range after {
		servers = append(servers, s)
	}
	sort.Slice(servers, func(i, j int) bool {
		if (servers[i] == first) != (servers[j] == first) {
			return servers[i] == first
		}
		return servers[i] < servers[j]
	})
	var out []Delta
	for _, s := range servers {
		d := Delta{Server: s, ByKey: Counts{}, Reads: Counts{}, Refused: Counts{}}
		for key, v := range after[s] {
			delta := v - before[s][key]
			switch {
			case delta <= 0:
			case key == EventKey:
				d.Events += delta
			case strings.HasPrefix(key, refusedPrefix):
				d.Refused[strings.TrimPrefix(key, refusedPrefix)] = delta
			case strings.HasPrefix(key, readPrefix):
				d.Reads[strings.TrimPrefix(key, readPrefix)] = delta
			default:
				d.ByKey[key] = delta
				d.Total += delta
			}
		}
		out = append(out, d)
	}
	return out
}

// StatusWrites sums one server's writes of a resource's status subresource.
func (d Delta) StatusWrites(resource string) float64 {
	var total float64
	for key, v := range d.ByKey {
		if strings.HasSuffix(key, " "+resource+"/status") {
			total += v
		}
	}
	return total
}

// Largest lists the k largest counts as "VERB resource n".
func Largest(c Counts, k int) string {
	keys := make([]string, 0, len(c))
	for key := range c {
		keys = append(keys, key)
	}
	sort.Slice(keys, func(i, j int) bool {
		if c[keys[i]] != c[keys[j]] {
			return c[keys[i]] > c[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var parts []string
	for _, key := range keys[:min(k, len(keys))] {
		parts = append(parts, fmt.Sprintf("%s %.0f", key, c[key]))
	}
	if len(keys) > k {
		parts = append(parts, "...")
	}
	return strings.Join(parts, ", ")
}

// ScrapeServers scrapes every server, keyed as given.
func ScrapeServers(ctx context.Context, servers map[string]kubernetes.Interface) (map[string]Counts, error) {
	out := map[string]Counts{}
	for name, client := range servers {
		c, err := Scrape(ctx, client)
		if err != nil {
			return nil, fmt.Errorf("metrics of %s: %w", name, err)
		}
		out[name] = c
	}
	return out, nil
}
