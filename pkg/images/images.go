// Package images builds the container images of mco's binaries without
// Docker: one static binary on an empty base, run as an unprivileged user,
// written as an image tarball that `docker load`, `podman load`,
// `kind load image-archive` and `crane push` read.
package images

import (
	"archive/tar"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// Binaries are the binaries that get an image.
var Binaries = []string{"mco-apiserver", "mco-scheduler", "mco-controller-manager", "mco-agent", "kubectl-mco"}

// Repository prefixes the images' names: <Repository>/<binary>:<version>.
const Repository = "ghcr.io/mco-org"

// User is the uid the images run as (nonroot, as distroless images use).
const User = "65532"

// BinDir is where the binary sits in the image.
const BinDir = "/usr/local/bin"

// Meta describes the build, for the OCI labels.
type Meta struct {
	Version  string
	Revision string
	Source   string
	// Created is the image's creation time; zero keeps builds reproducible.
	Created time.Time
}

// Labels are the OCI annotations of the image config.
func (m Meta) Labels() map[string]string {
	return map[string]string{
		"org.opencontainers.image.source":   m.Source,
		"org.opencontainers.image.revision": m.Revision,
		"org.opencontainers.image.version":  m.Version,
		"org.opencontainers.image.licenses": "Apache-2.0",
	}
}

// Build returns the image of the binary at path.
func Build(path string, m Meta) (v1.Image, error) {
	bin := filepath.Base(path)
	content, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	data, err := layerTar(bin, content)
	if err != nil {
		return nil, fmt.Errorf("layer of %s: %w", bin, err)
	}
	layer, err := tarball.LayerFromOpener(opener(data), tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, fmt.Errorf("layer of %s: %w", bin, err)
	}
	img, err := mutate.AppendLayers(mutate.MediaType(empty.Image, types.OCIManifestSchema1), layer)
	if err != nil {
		return nil, err
	}
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cfg = cfg.DeepCopy()
	cfg.OS, cfg.Architecture = "linux", goarch()
	cfg.Created = v1.Time{Time: m.Created}
	cfg.Config.Entrypoint = []string{BinDir + "/" + bin}
	cfg.Config.User = User
	cfg.Config.WorkingDir = "/"
	cfg.Config.Labels = m.Labels()
	return mutate.ConfigFile(img, cfg)
}

// Tag is the image's name and tag.
func Tag(bin, version string) (name.Tag, error) {
	return name.NewTag(fmt.Sprintf("%s/%s:%s", Repository, bin, version))
}

// Write builds the binary's image and writes it to dir/<binary>.tar.
func Write(binPath, dir string, m Meta) (string, error) {
	bin := filepath.Base(binPath)
	img, err := Build(binPath, m)
	if err != nil {
		return "", err
	}
	tag, err := Tag(bin, m.Version)
	if err != nil {
		return "", fmt.Errorf("tag of %s: %w", bin, err)
	}
	out := filepath.Join(dir, bin+".tar")
	if err := tarball.WriteToFile(out, tag, img); err != nil {
		return "", fmt.Errorf("write %s: %w", out, err)
	}
	return out, nil
}

// layerTar is a tar holding the binary at BinDir, executable by all, owned
// by root, with a fixed time.
func layerTar(bin string, content []byte) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	epoch := time.Unix(0, 0)
	for _, d := range []string{"usr/", "usr/local/", "usr/local/bin/"} {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d, Mode: 0o755, ModTime: epoch}); err != nil {
			return nil, err
		}
	}
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: "usr/local/bin/" + bin, Mode: 0o755, Size: int64(len(content)), ModTime: epoch}
	if err := tw.WriteHeader(hdr); err != nil {
		return nil, err
	}
	if _, err := tw.Write(content); err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
