package chart

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	ggcrregistry "github.com/google/go-containerregistry/pkg/registry"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/static"
	"github.com/google/go-containerregistry/pkg/v1/types"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
)

// packaged is the test chart's archive and its digest.
func packaged(t *testing.T) ([]byte, string) {
	t.Helper()
	ch, err := loader.LoadDir("testdata/log-collector")
	if err != nil {
		t.Fatal(err)
	}
	path, err := chartutil.Save(ch, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return data, "sha256:" + hex.EncodeToString(sum[:])
}

// repository serves an index.yaml listing the archive under indexDigest,
// counting requests; with user set it wants basic auth.
type repository struct {
	archive     []byte
	indexDigest string
	user        string
	requests    atomic.Int32
}

func (r *repository) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.requests.Add(1)
	if u, p, _ := req.BasicAuth(); r.user != "" && (u != r.user || p != "secret") {
		http.Error(w, "who are you", http.StatusUnauthorized)
		return
	}
	switch req.URL.Path {
	case "/charts/index.yaml":
		fmt.Fprintf(w, "apiVersion: v1\nentries:\n  log-collector:\n  - {name: log-collector, version: 2.1.0, digest: %q, urls: [archives/log-collector-2.1.0.tgz]}\n",
			strings.TrimPrefix(r.indexDigest, "sha256:"))
	case "/charts/archives/log-collector-2.1.0.tgz":
		_, _ = w.Write(r.archive)
	default:
		http.NotFound(w, req)
	}
}

func TestFetchFromRepository(t *testing.T) {
	archive, digest := packaged(t)
	src := func(url string, change func(*addonsv1alpha1.ChartSource)) *addonsv1alpha1.ChartSource {
		s := &addonsv1alpha1.ChartSource{Repository: url + "/charts", Name: "log-collector", Version: "2.1.0"}
		if change != nil {
			change(s)
		}
		return s
	}
	tests := []struct {
		name        string
		repo        *repository
		change      func(*addonsv1alpha1.ChartSource)
		creds       *Credentials
		maxArchive  int64
		wantErr     string
		wantFetches int32 // requests for two fetches in a row
	}{
		{name: "a chart is fetched once, then served from the cache", repo: &repository{archive: archive, indexDigest: digest}, wantFetches: 2},
		{name: "a digest in the spec that matches", repo: &repository{archive: archive, indexDigest: digest},
			change: func(s *addonsv1alpha1.ChartSource) { s.Digest = digest }, wantFetches: 2},
		{name: "a digest in the spec that does not match is refused", repo: &repository{archive: archive, indexDigest: digest},
			change:  func(s *addonsv1alpha1.ChartSource) { s.Digest = "sha256:" + strings.Repeat("0", 64) },
			wantErr: "digest mismatch: the archive of log-collector 2.1.0 is " + digest + ", spec.chart.digest wants"},
		{name: "an archive the index gives another digest is refused", repo: &repository{archive: archive, indexDigest: "sha256:" + strings.Repeat("1", 64)},
			wantErr: "the repository's index says"},
		{name: "a version the index does not list", repo: &repository{archive: archive, indexDigest: digest},
			change: func(s *addonsv1alpha1.ChartSource) { s.Version = "9.9.9" }, wantErr: "chart log-collector version 9.9.9 is not in"},
		{name: "an archive over the size limit", repo: &repository{archive: archive, indexDigest: digest}, maxArchive: 100,
			wantErr: "larger than the limit of 100 bytes"},
		{name: "a repository wanting credentials, given them", repo: &repository{archive: archive, indexDigest: digest, user: "ci"},
			creds: &Credentials{Username: "ci", Password: "secret"}, wantFetches: 2},
		{name: "a repository wanting credentials, given none", repo: &repository{archive: archive, indexDigest: digest, user: "ci"},
			wantErr: "401 Unauthorized"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			server := httptest.NewServer(tt.repo)
			defer server.Close()
			f := NewFetcher()
			if tt.maxArchive > 0 {
				f.MaxArchive = tt.maxArchive
			}
			for i := range 2 {
				got, err := f.Fetch(context.Background(), src(server.URL, tt.change), tt.creds)
				if tt.wantErr != "" {
					if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
						t.Fatalf("err %v, want %q", err, tt.wantErr)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if got.Digest != digest || got.Chart.Metadata.Version != "2.1.0" || got.Cached != (i == 1) {
					t.Fatalf("fetch %d: %s %s, cached %v", i+1, got.Chart.Metadata.Version, got.Digest, got.Cached)
				}
			}
			if n := tt.repo.requests.Load(); n != tt.wantFetches {
				t.Errorf("%d requests for two fetches, want %d (index and archive once)", n, tt.wantFetches)
			}
		})
	}
}

func TestFetchRefusesLinkLocalAndAbsentRepositories(t *testing.T) {
	f := NewFetcher()
	_, err := f.Fetch(context.Background(), &addonsv1alpha1.ChartSource{Repository: "http://169.254.169.254/charts", Name: "x", Version: "1.0.0"}, nil)
	if err == nil || !strings.Contains(err.Error(), "refusing to fetch from link-local address 169.254.169.254") {
		t.Errorf("link-local: %v", err)
	}
	server := httptest.NewServer(http.NotFoundHandler())
	server.Close()
	_, err = f.Fetch(context.Background(), &addonsv1alpha1.ChartSource{Repository: server.URL + "/charts", Name: "x", Version: "1.0.0"}, nil)
	if err == nil || !strings.Contains(err.Error(), "read the repository's index") {
		t.Errorf("a repository away: %v", err)
	}
}

func TestFetchFromRegistry(t *testing.T) {
	archive, digest := packaged(t)
	server := httptest.NewServer(ggcrregistry.New())
	defer server.Close()
	host := strings.TrimPrefix(server.URL, "http://")
	push := func(tag string, mt types.MediaType) {
		img, err := mutate.AppendLayers(empty.Image, static.NewLayer(archive, mt))
		if err != nil {
			t.Fatal(err)
		}
		img = mutate.ConfigMediaType(img, "application/vnd.cncf.helm.config.v1+json")
		ref, err := name.ParseReference(host+"/charts/"+tag, name.Insecure)
		if err != nil {
			t.Fatal(err)
		}
		if err := remote.Write(ref, img); err != nil {
			t.Fatal(err)
		}
	}
	push("log-collector:2.1.0", ChartLayerMediaType)
	push("not-a-chart:1.0.0", "application/octet-stream")

	f := NewFetcher()
	got, err := f.Fetch(context.Background(), &addonsv1alpha1.ChartSource{Repository: "oci://" + host + "/charts", Name: "log-collector",
		Version: "2.1.0", PlainHTTP: true, Digest: digest}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Chart.Metadata.Name != "log-collector" || got.Digest != digest {
		t.Errorf("fetched %s %s", got.Chart.Metadata.Name, got.Digest)
	}
	_, err = f.Fetch(context.Background(), &addonsv1alpha1.ChartSource{Repository: "oci://" + host + "/charts", Name: "not-a-chart",
		Version: "1.0.0", PlainHTTP: true}, nil)
	if err == nil || !strings.Contains(err.Error(), "not a Helm chart") {
		t.Errorf("an image that is no chart: %v", err)
	}
}
