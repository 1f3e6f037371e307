package chart

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// ChartLayerMediaType is the media type of a chart archive in an OCI
// registry, as Helm pushes it.
const ChartLayerMediaType types.MediaType = "application/vnd.cncf.helm.chart.content.v1.tar+gzip"

// fetchFromRegistry pulls a chart archive from an OCI registry: the
// repository oci://HOST/PATH holds the chart as HOST/PATH/NAME:VERSION,
// its archive the layer of ChartLayerMediaType.
func (f *Fetcher) fetchFromRegistry(ctx context.Context, client *http.Client, repository, chartName, version string, creds *Credentials, plainHTTP bool) ([]byte, error) {
	u, err := url.Parse(repository)
	if err != nil {
		return nil, err
	}
	if err := f.checkHost(u.Hostname()); err != nil {
		return nil, err
	}
	// OCI tags cannot hold "+": Helm writes build metadata with "_".
	tag := strings.TrimSuffix(strings.TrimPrefix(repository, "oci://"), "/") + "/" + chartName + ":" + strings.ReplaceAll(version, "+", "_")
	var opts []name.Option
	if plainHTTP {
		opts = append(opts, name.Insecure)
	}
	ref, err := name.ParseReference(tag, opts...)
	if err != nil {
		return nil, fmt.Errorf("reference %s: %w", tag, err)
	}
	auth := authn.Anonymous
	if creds != nil && creds.Username != "" {
		auth = &authn.Basic{Username: creds.Username, Password: creds.Password}
	}
	img, err := remote.Image(ref, remote.WithContext(ctx), remote.WithTransport(client.Transport), remote.WithAuth(auth))
	if err != nil {
		return nil, fmt.Errorf("pull %s: %w", tag, err)
	}
	manifest, err := img.Manifest()
	if err != nil {
		return nil, fmt.Errorf("pull %s: %w", tag, err)
	}
	for _, l := range manifest.Layers {
		if l.MediaType != ChartLayerMediaType {
			continue
		}
		if l.Size > f.MaxArchive {
			return nil, fmt.Errorf("pull %s: the chart layer has %d bytes, over the limit of %d", tag, l.Size, f.MaxArchive)
		}
		layer, err := img.LayerByDigest(l.Digest)
		if err != nil {
			return nil, fmt.Errorf("pull %s: %w", tag, err)
		}
		rc, err := layer.Compressed()
		if err != nil {
			return nil, fmt.Errorf("pull %s: %w", tag, err)
		}
		defer rc.Close()
		data, err := io.ReadAll(io.LimitReader(rc, f.MaxArchive+1))
		if err != nil {
			return nil, fmt.Errorf("pull %s: %w", tag, err)
		}
		if int64(len(data)) > f.MaxArchive {
			return nil, fmt.Errorf("pull %s: larger than the limit of %d bytes", tag, f.MaxArchive)
		}
		return data, nil
	}
	return nil, fmt.Errorf("pull %s: no layer of %s: not a Helm chart", tag, ChartLayerMediaType)
}
