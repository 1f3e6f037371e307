package chart

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"sigs.k8s.io/yaml"
)

// fetchFromRepository downloads a chart archive from a Helm repository:
// its index.yaml names the archive's URL and, usually, its digest.
func (f *Fetcher) fetchFromRepository(ctx context.Context, client *http.Client, repository, name, version string, creds *Credentials) (archive []byte, indexDigest string, err error) {
	base := strings.TrimSuffix(repository, "/")
	raw, err := f.get(ctx, client, base+"/index.yaml", repository, creds, defaultMaxIndex)
	if err != nil {
		return nil, "", fmt.Errorf("read the repository's index: %w", err)
	}
	var index indexFile
	if err := yaml.Unmarshal(raw, &index); err != nil {
		return nil, "", fmt.Errorf("read the repository's index: %w", err)
	}
	cv, ok := index.get(name, version)
	if !ok {
		return nil, "", fmt.Errorf("chart %s version %s is not in %s", name, version, repository)
	}
	if len(cv.URLs) == 0 {
		return nil, "", fmt.Errorf("the index of %s lists no URL for %s %s", repository, name, version)
	}
	baseURL, err := url.Parse(base + "/")
	if err != nil {
		return nil, "", err
	}
	archiveURL, err := url.Parse(cv.URLs[0])
	if err != nil {
		return nil, "", fmt.Errorf("the URL of %s %s in the index: %w", name, version, err)
	}
	ref := baseURL.ResolveReference(archiveURL).String()
	archive, err = f.get(ctx, client, ref, repository, creds, f.MaxArchive)
	if err != nil {
		return nil, "", fmt.Errorf("download %s %s: %w", name, version, err)
	}
	return archive, cv.Digest, nil
}

// get reads one URL, with basic auth only when it is on the repository's
// own host (as Helm passes credentials), and at most limit bytes.
func (f *Fetcher) get(ctx context.Context, client *http.Client, target, repository string, creds *Credentials, limit int64) ([]byte, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	if err := f.checkHost(u.Hostname()); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, err
	}
	if creds != nil && creds.Username != "" {
		if repo, err := url.Parse(repository); err == nil && repo.Host == u.Host {
			req.SetBasicAuth(creds.Username, creds.Password)
		}
	}
	req.Header.Set("User-Agent", "mco-controller-manager")
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", u.Redacted(), resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", u.Redacted(), err)
	}
	if int64(len(body)) > limit {
		return nil, fmt.Errorf("GET %s: larger than the limit of %d bytes", u.Redacted(), limit)
	}
	return body, nil
}

// indexFile is what fetching reads of a repository's index.yaml. (Helm's
// own type lives in a package that brings Helm's plugin runtime along.)
type indexFile struct {
	Entries map[string][]indexEntry `json:"entries"`
}

// indexEntry is one version of a chart in an index.
type indexEntry struct {
	Version string   `json:"version"`
	URLs    []string `json:"urls"`
	Digest  string   `json:"digest"`
}

// get finds a chart's exact version; a leading "v" on either side does
// not count, as in Helm.
func (i indexFile) get(name, version string) (indexEntry, bool) {
	for _, e := range i.Entries[name] {
		if strings.TrimPrefix(e.Version, "v") == strings.TrimPrefix(version, "v") {
			return e, true
		}
	}
	return indexEntry{}, false
}
