package main

import (
	"context"

	"k8s.io/client-go/kubernetes"

	"github.com/mco-org/mco/hack/internal/benchkit"
)

// mcoServer names mco-apiserver among the scraped servers.
const mcoServer = "mco"

// scrapeAll reads apiserver_request_total from mco-apiserver and every
// member's kube-apiserver, keyed by server.
func (b *bench) scrapeAll(ctx context.Context) (map[string]benchkit.Counts, error) {
	servers := map[string]kubernetes.Interface{mcoServer: b.kube}
	for name, client := range b.members {
		servers[name] = client
	}
	return benchkit.ScrapeServers(ctx, servers)
}
