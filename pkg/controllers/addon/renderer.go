// Package addon is where mco-controller-manager runs add-ons (Addon
// objects): the Expander the binding controller asks for an Addon's Works
// in each cluster (its values there, its chart fetched and rendered once
// per distinct input, the decision against dependencies, conflicts and
// version ranges), the Outcomes it records, and the controller writing
// each Addon's status from them and the Works. The decisions are
// pkg/addon's; fetching and rendering pkg/addon/chart's.
package addon

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"k8s.io/utils/lru"

	"github.com/mco-org/mco/pkg/addon/chart"
	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/metrics"
)

// renderCacheSize is how many renders are kept: one per distinct
// (chart, release, values, member capabilities), however many clusters
// share it.
const renderCacheSize = 256

// RenderTimeout bounds one render: a chart's templates may loop.
const RenderTimeout = 30 * time.Second

// Rendered is what one cluster gets of an add-on.
type Rendered struct {
	Objects      []chart.Object
	ChartVersion string
	ChartDigest  string
	// ValuesHash identifies the merged values ("sha256:" and hex).
	ValuesHash string
	// SetBy tells which layer last set each top-level value.
	SetBy map[string]string
	// ChartKubeVersion is the chart's own kubeVersion range ("" when none).
	ChartKubeVersion string
}

// Credentials reads the repository credentials an Addon names.
type Credentials func(a *addonsv1alpha1.Addon) (*chart.Credentials, error)

// Renderer renders add-ons for clusters, rendering each distinct input
// once. It is safe for concurrent use.
type Renderer struct {
	fetcher     *chart.Fetcher
	sources     Sources
	credentials Credentials
	cache       *lru.Cache
	metrics     *metrics.Addons // nil: none
}

// NewRenderer returns a Renderer fetching with fetcher, reading values
// from sources and credentials with credentials, counting into m (nil:
// no metrics).
func NewRenderer(fetcher *chart.Fetcher, sources Sources, credentials Credentials, m *metrics.Addons) *Renderer {
	return &Renderer{fetcher: fetcher, sources: sources, credentials: credentials, cache: lru.New(renderCacheSize), metrics: m}
}

// Render renders a for cluster: its values for that cluster, its chart
// fetched (or cached), rendered with the cluster's own version and APIs.
func (r *Renderer) Render(ctx context.Context, a *addonsv1alpha1.Addon, cluster *clusterv1alpha1.Cluster) (*Rendered, error) {
	merged, err := Values(a, cluster, r.sources)
	if err != nil {
		return nil, err
	}
	valuesHash, err := hash(merged.Values)
	if err != nil {
		return nil, err
	}
	creds, err := r.credentials(a)
	if err != nil {
		return nil, err
	}
	fetched, err := r.fetcher.Fetch(ctx, &a.Spec.Chart, creds)
	if err != nil || !fetched.Cached {
		r.metrics.Fetched(err)
	}
	if err != nil {
		return nil, fmt.Errorf("fetch chart %s %s from %s: %w", a.Spec.Chart.Name, a.Spec.Chart.Version, a.Spec.Chart.Repository, err)
	}
	member := MemberOf(cluster)
	key := strings.Join([]string{fetched.Digest, a.Spec.Release.Name, a.Spec.Release.Namespace, valuesHash,
		member.KubeVersion, strings.Join(member.APIVersions, ",")}, "\x00")
	out := &Rendered{ChartVersion: fetched.Chart.Metadata.Version, ChartDigest: fetched.Digest, ValuesHash: valuesHash,
		SetBy: merged.SetBy, ChartKubeVersion: fetched.Chart.Metadata.KubeVersion}
	if objs, ok := r.cache.Get(key); ok {
		r.metrics.RenderHit()
		out.Objects = objs.([]chart.Object)
		return out, nil
	}
	start := time.Now()
	rctx, cancel := context.WithTimeout(ctx, RenderTimeout)
	defer cancel()
	objs, err := chart.Render(rctx, fetched.Chart, chart.Release{Name: a.Spec.Release.Name, Namespace: a.Spec.Release.Namespace}, merged.Values, member)
	if err != nil && rctx.Err() == context.DeadlineExceeded {
		err = fmt.Errorf("rendering took longer than the limit of %s: %w", RenderTimeout, err)
	}
	if err != nil {
		return nil, fmt.Errorf("render chart %s %s for cluster %s: %w", a.Spec.Chart.Name, a.Spec.Chart.Version, cluster.Name, err)
	}
	r.metrics.Rendered(time.Since(start))
	r.cache.Add(key, objs)
	out.Objects = objs
	return out, nil
}

// MemberOf is what rendering reads of a cluster: its Kubernetes version
// and, as Helm's .Capabilities.APIVersions holds them, each group-version
// it serves and each group-version/Kind, sorted.
func MemberOf(c *clusterv1alpha1.Cluster) chart.Member {
	set := map[string]bool{}
	for _, e := range c.Status.APIEnablements {
		set[e.GroupVersion] = true
		for _, res := range e.Resources {
			if res.Kind != "" && !strings.Contains(res.Name, "/") {
				set[e.GroupVersion+"/"+res.Kind] = true
			}
		}
	}
	versions := make([]string, 0, len(set))
	for v := range set {
		versions = append(versions, v)
	}
	sort.Strings(versions)
	return chart.Member{KubeVersion: c.Status.KubernetesVersion, APIVersions: versions}
}

// hash identifies values: JSON sorts map keys, so equal values hash
// alike.
func hash(values map[string]any) (string, error) {
	raw, err := json.Marshal(values)
	if err != nil {
		return "", fmt.Errorf("encode values: %w", err)
	}
	sum := sha256.Sum256(raw)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}
