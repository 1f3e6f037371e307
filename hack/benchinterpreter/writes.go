package main

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

// writes are mco-apiserver's write requests by "VERB resource[/sub]",
// Leases left out (they come with time, not with workloads).
type writes map[string]float64

// scrape reads apiserver_request_total's writes from mco-apiserver.
func scrape(ctx context.Context, client kubernetes.Interface) (writes, error) {
	raw, err := client.CoreV1().RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
	if err != nil {
		return nil, fmt.Errorf("metrics of mco-apiserver: %w", err)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("parse the metrics of mco-apiserver: %w", err)
	}
	out := writes{}
	for _, m := range families["apiserver_request_total"].GetMetric() {
		l := map[string]string{}
		for _, p := range m.GetLabel() {
			l[p.GetName()] = p.GetValue()
		}
		switch l["verb"] {
		case "POST", "PUT", "PATCH", "APPLY", "DELETE":
		default:
			continue
		}
		if l["resource"] == "leases" {
			continue
		}
		key := l["verb"] + " " + l["resource"]
		if l["subresource"] != "" {
			key += "/" + l["subresource"]
		}
		out[key] += m.GetCounter().GetValue()
	}
	return out, nil
}

// perWorkload formats the writes between two scrapes per workload, most
// first, and their sum.
func perWorkload(before, after writes, count int) (string, float64) {
	type kv struct {
		key string
		n   float64
	}
	var list []kv
	total := 0.0
	for k, v := range after {
		if d := (v - before[k]) / float64(count); d > 0.005 {
			list = append(list, kv{k, d})
			total += d
		}
	}
	sort.Slice(list, func(i, j int) bool {
		return list[i].n > list[j].n || list[i].n == list[j].n && list[i].key < list[j].key
	})
	parts := make([]string, 0, len(list))
	for _, e := range list {
		parts = append(parts, fmt.Sprintf("%s %.2f", e.key, e.n))
	}
	return strings.Join(parts, ", "), total
}
