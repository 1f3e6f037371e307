package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// controllerManagerWrites counts mco-apiserver's write requests so far by
// resource (group/resource/subresource), from its metrics.
func controllerManagerWrites(t *testing.T) map[string]float64 {
	t.Helper()
	kube, _ := mcoClients(t)
	raw, err := kube.CoreV1().RESTClient().Get().AbsPath("/metrics").DoRaw(context.Background())
	if err != nil {
		t.Fatalf("mco-apiserver metrics: %v", err)
	}
	out := map[string]float64{}
	for _, line := range strings.Split(string(raw), "\n") {
		if !strings.HasPrefix(line, "apiserver_request_total{") {
			continue
		}
		labels := map[string]string{}
		body := line[strings.Index(line, "{")+1 : strings.LastIndex(line, "}")]
		for _, kv := range strings.Split(body, ",") {
			k, v, _ := strings.Cut(kv, "=")
			labels[k] = strings.Trim(v, `"`)
		}
		switch labels["verb"] {
		case "POST", "PUT", "PATCH", "DELETE", "APPLY", "UPDATE", "CREATE":
		default:
			continue
		}
		var n float64
		fmt.Sscanf(strings.TrimSpace(line[strings.LastIndex(line, "}")+1:]), "%g", &n)
		key := labels["group"] + "/" + labels["resource"]
		if labels["subresource"] != "" {
			key += "/" + labels["subresource"]
		}
		out[key] += n
	}
	return out
}

// diffWrites is after minus before, leaving out resources not written.
func diffWrites(before, after map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for k, v := range after {
		if d := v - before[k]; d > 0 {
			out[k] = d
		}
	}
	return out
}
