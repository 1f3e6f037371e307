package main

import (
	"context"
	"fmt"

	"github.com/mco-org/mco/hack/internal/benchkit"
)

// mcoServer names mco-apiserver among the scraped servers.
const mcoServer = "mco"

// scrapeAll reads apiserver_request_total from mco-apiserver and every
// member's kube-apiserver, keyed by server.
func (b *bench) scrapeAll(ctx context.Context) (map[string]benchkit.Counts, error) {
	out := map[string]benchkit.Counts{}
	var err error
	if out[mcoServer], err = benchkit.Scrape(ctx, b.kube); err != nil {
		return nil, fmt.Errorf("metrics of mco-apiserver: %w", err)
	}
	for _, name := range b.names {
		if out[name], err = benchkit.Scrape(ctx, b.members[name]); err != nil {
			return nil, fmt.Errorf("metrics of %s: %w", name, err)
		}
	}
	return out, nil
}
