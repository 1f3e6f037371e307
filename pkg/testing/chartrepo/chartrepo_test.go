package chartrepo

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mco-org/mco/pkg/addon/chart"
	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	"github.com/mco-org/mco/pkg/testing/repo"
)

// TestServe fetches what the server publishes through mco's own fetcher,
// from the repository and from the registry, each version with its own
// values; down, it refuses.
func TestServe(t *testing.T) {
	dir := filepath.Join(repo.Root(t), "pkg", "addon", "chart", "testdata", "log-collector")
	s := Serve(t, Chart{Dir: dir}, Chart{Dir: dir, Version: "2.2.0", Values: map[string]any{"region": "moved"}})
	for _, url := range []string{s.URL, s.OCI} {
		for version, region := range map[string]string{"2.1.0": "unknown", "2.2.0": "moved"} {
			src := &addonsv1alpha1.ChartSource{Repository: url, Name: "log-collector", Version: version, PlainHTTP: true}
			got, err := chart.NewFetcher().Fetch(context.Background(), src, nil)
			if err != nil {
				t.Fatalf("%s %s: %v", url, version, err)
			}
			if got.Chart.Metadata.Version != version || got.Chart.Values["region"] != region {
				t.Errorf("%s %s: version %s, region %v", url, version, got.Chart.Metadata.Version, got.Chart.Values["region"])
			}
		}
	}
	s.SetDown(true)
	_, err := chart.NewFetcher().Fetch(context.Background(), &addonsv1alpha1.ChartSource{Repository: s.URL, Name: "log-collector", Version: "2.1.0"}, nil)
	if err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("down: %v", err)
	}
}
