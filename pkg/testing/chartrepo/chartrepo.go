// Package chartrepo serves charts the tests write as a Helm repository
// (index.yaml and archives) and as an OCI registry, both on loopback, so
// that add-ons are fetched through the same clients as from real ones.
package chartrepo

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	ggcrregistry "github.com/google/go-containerregistry/pkg/registry"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/static"
	commonutil "helm.sh/helm/v4/pkg/chart/common/util"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
	"sigs.k8s.io/yaml"

	"github.com/mco-org/mco/pkg/addon/chart"
)

// Chart is one chart version to serve: the chart in Dir, published as
// Version with Values merged over its values.yaml (so one directory serves
// several versions that render differently), and with KubeVersion, when
// set, as the chart's kubeVersion range.
type Chart struct {
	Dir         string
	Version     string
	Values      map[string]any
	KubeVersion string
}

// Server is a Helm repository and an OCI registry on loopback.
type Server struct {
	// URL is the repository's (http://127.0.0.1:port/charts); OCI is the
	// registry's (oci://127.0.0.1:port/charts).
	URL, OCI string

	down     atomic.Bool
	mu       sync.Mutex
	archives map[string][]byte // file name -> archive
	entries  map[string][]indexEntry
	registry http.Handler
	host     string
	server   *httptest.Server
}

type indexEntry struct {
	Name    string   `json:"name"`
	Version string   `json:"version"`
	Digest  string   `json:"digest"`
	URLs    []string `json:"urls"`
}

// Serve starts a server holding charts; it stops with the test.
func Serve(t testing.TB, charts ...Chart) *Server {
	t.Helper()
	s := Start()
	t.Cleanup(s.Close)
	for _, c := range charts {
		s.Add(t, c)
	}
	return s
}

// Start starts an empty server on loopback; Close stops it.
func Start() *Server {
	s := &Server{archives: map[string][]byte{}, entries: map[string][]indexEntry{},
		registry: ggcrregistry.New(ggcrregistry.Logger(log.New(io.Discard, "", 0)))}
	s.server = httptest.NewServer(s)
	s.host = strings.TrimPrefix(s.server.URL, "http://")
	s.URL, s.OCI = s.server.URL+"/charts", "oci://"+s.host+"/charts"
	return s
}

// Close stops the server.
func (s *Server) Close() { s.server.Close() }

// Add publishes one more chart version and returns its archive's digest
// ("sha256:" and hex).
func (s *Server) Add(t testing.TB, c Chart) string {
	t.Helper()
	digest, err := s.Publish(c, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return digest
}

// Publish publishes one more chart version, packaging it in dir, and
// returns its archive's digest ("sha256:" and hex).
func (s *Server) Publish(c Chart, dir string) (string, error) {
	ch, err := loader.LoadDir(c.Dir)
	if err != nil {
		return "", fmt.Errorf("load chart %s: %w", c.Dir, err)
	}
	if c.Version != "" {
		ch.Metadata.Version = c.Version
	}
	if c.KubeVersion != "" {
		ch.Metadata.KubeVersion = c.KubeVersion
	}
	if len(c.Values) > 0 {
		ch.Values = commonutil.CoalesceTables(deepCopy(c.Values), ch.Values)
		raw, err := yaml.Marshal(ch.Values)
		if err != nil {
			return "", err
		}
		for _, f := range ch.Raw {
			if f.Name == chartutil.ValuesfileName {
				f.Data = raw
			}
		}
	}
	path, err := chartutil.Save(ch, dir)
	if err != nil {
		return "", err
	}
	archive, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(archive)
	digest := hex.EncodeToString(sum[:])
	file := fmt.Sprintf("%s-%s.tgz", ch.Metadata.Name, ch.Metadata.Version)
	s.mu.Lock()
	s.archives[file] = archive
	s.entries[ch.Metadata.Name] = append(s.entries[ch.Metadata.Name],
		indexEntry{Name: ch.Metadata.Name, Version: ch.Metadata.Version, Digest: digest, URLs: []string{file}})
	s.mu.Unlock()
	if err := s.push(ch.Metadata.Name, ch.Metadata.Version, archive); err != nil {
		return "", err
	}
	return "sha256:" + digest, nil
}

// push stores the archive in the registry as Helm pushes a chart.
func (s *Server) push(chartName, version string, archive []byte) error {
	img, err := mutate.AppendLayers(empty.Image, static.NewLayer(archive, chart.ChartLayerMediaType))
	if err != nil {
		return err
	}
	img = mutate.ConfigMediaType(img, "application/vnd.cncf.helm.config.v1+json")
	ref, err := name.ParseReference(s.host+"/charts/"+chartName+":"+version, name.Insecure)
	if err != nil {
		return err
	}
	if err := remote.Write(ref, img); err != nil {
		return fmt.Errorf("push %s %s: %w", chartName, version, err)
	}
	return nil
}

// SetDown makes the server answer every request with 503 (down) or serve
// again.
func (s *Server) SetDown(down bool) { s.down.Store(down) }

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.down.Load() {
		http.Error(w, "the repository is away", http.StatusServiceUnavailable)
		return
	}
	if strings.HasPrefix(r.URL.Path, "/v2/") {
		s.registry.ServeHTTP(w, r)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch file := strings.TrimPrefix(r.URL.Path, "/charts/"); {
	case file == "index.yaml":
		raw, err := yaml.Marshal(map[string]any{"apiVersion": "v1", "entries": s.entries})
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_, _ = w.Write(raw)
	case s.archives[file] != nil:
		_, _ = w.Write(s.archives[file])
	default:
		http.NotFound(w, r)
	}
}

func deepCopy(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			v = deepCopy(sub)
		}
		out[k] = v
	}
	return out
}
