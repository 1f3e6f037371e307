package chart

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"strings"
	"time"

	chartv2 "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"k8s.io/utils/lru"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
)

// Defaults of a Fetcher.
const (
	DefaultMaxArchive = 20 << 20 // bytes of one chart archive
	DefaultTimeout    = 60 * time.Second
	defaultMaxIndex   = 64 << 20
	defaultCacheSize  = 64
	defaultVersionTTL = 10 * time.Minute
)

// Fetched is a chart loaded from its archive.
type Fetched struct {
	Chart *chartv2.Chart
	// Digest is the archive's, "sha256:" and hexadecimal.
	Digest string
	// Cached: no request went out for it.
	Cached bool
}

// Fetcher fetches charts from Helm repositories and OCI registries and
// keeps the last ones loaded, by archive digest; which digest a chart
// version has is remembered for a while, so that a hundred clusters
// cost one fetch. Build it with NewFetcher; it is safe for concurrent use
// (two fetches of a chart not cached yet may both go out).
type Fetcher struct {
	// MaxArchive bounds a chart archive's size; Timeout one fetch.
	MaxArchive int64
	Timeout    time.Duration
	// AllowLinkLocal lets fetches reach link-local addresses.
	AllowLinkLocal bool

	now      func() time.Time
	charts   *lru.Cache // digest -> *chartv2.Chart
	versions *lru.Cache // versionKey -> versionEntry
}

type versionEntry struct {
	digest string
	at     time.Time
}

// NewFetcher returns a Fetcher with the defaults.
func NewFetcher() *Fetcher {
	return &Fetcher{MaxArchive: DefaultMaxArchive, Timeout: DefaultTimeout, now: time.Now,
		charts: lru.New(defaultCacheSize), versions: lru.New(4 * defaultCacheSize)}
}

// checkHost refuses a link-local address written as the host (the
// dialer refuses those a name resolves to).
func (f *Fetcher) checkHost(host string) error {
	if f.AllowLinkLocal {
		return nil
	}
	return refuseLinkLocal("", net.JoinHostPort(host, "0"), nil)
}

// Fetch returns the chart src names, loaded: from the cache when this
// version's archive was fetched a short while ago (or src.Digest names one
// in the cache), else fetched. The archive must match src.Digest when it
// is set, and the repository index's digest when the index gives one.
func (f *Fetcher) Fetch(ctx context.Context, src *addonsv1alpha1.ChartSource, creds *Credentials) (*Fetched, error) {
	key := versionKey(src)
	if src.Digest != "" {
		if ch, ok := f.charts.Get(src.Digest); ok {
			return &Fetched{Chart: ch.(*chartv2.Chart), Digest: src.Digest, Cached: true}, nil
		}
	} else if v, ok := f.versions.Get(key); ok && f.now().Sub(v.(versionEntry).at) < defaultVersionTTL {
		if ch, ok := f.charts.Get(v.(versionEntry).digest); ok {
			return &Fetched{Chart: ch.(*chartv2.Chart), Digest: v.(versionEntry).digest, Cached: true}, nil
		}
	}
	ctx, cancel := context.WithTimeout(ctx, f.Timeout)
	defer cancel()
	client, err := httpClient(creds, f.Timeout, f.AllowLinkLocal)
	if err != nil {
		return nil, err
	}
	var archive []byte
	var indexDigest string
	if strings.HasPrefix(src.Repository, "oci://") {
		archive, err = f.fetchFromRegistry(ctx, client, src.Repository, src.Name, src.Version, creds, src.PlainHTTP)
	} else {
		archive, indexDigest, err = f.fetchFromRepository(ctx, client, src.Repository, src.Name, src.Version, creds)
	}
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(archive)
	digest := "sha256:" + hex.EncodeToString(sum[:])
	if src.Digest != "" && src.Digest != digest {
		return nil, fmt.Errorf("digest mismatch: the archive of %s %s is %s, spec.chart.digest wants %s", src.Name, src.Version, digest, src.Digest)
	}
	if indexDigest != "" && "sha256:"+strings.TrimPrefix(indexDigest, "sha256:") != digest {
		return nil, fmt.Errorf("digest mismatch: the archive of %s %s is %s, the repository's index says %s", src.Name, src.Version, digest, indexDigest)
	}
	ch, err := loader.LoadArchive(bytes.NewReader(archive))
	if err != nil {
		return nil, fmt.Errorf("load the archive of %s %s: %w", src.Name, src.Version, err)
	}
	if ch.Metadata.Name != src.Name || strings.TrimPrefix(ch.Metadata.Version, "v") != strings.TrimPrefix(src.Version, "v") {
		return nil, fmt.Errorf("the archive fetched for %s %s holds %s %s", src.Name, src.Version, ch.Metadata.Name, ch.Metadata.Version)
	}
	f.charts.Add(digest, ch)
	f.versions.Add(key, versionEntry{digest: digest, at: f.now()})
	return &Fetched{Chart: ch, Digest: digest}, nil
}

func versionKey(src *addonsv1alpha1.ChartSource) string {
	return src.Repository + "\x00" + src.Name + "\x00" + src.Version
}
