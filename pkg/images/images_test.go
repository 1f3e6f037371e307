package images

import (
	"archive/tar"
	"debug/elf"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// binDir holds the binaries hack/build.sh built (make test builds them
// first).
func binDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../_output/bin")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, Binaries[0])); err != nil {
		t.Fatalf("no binaries in %s: run hack/build.sh first (make test does): %v", dir, err)
	}
	return dir
}

// TestImages builds every image, reads its tarball back, checks the
// config, and runs the binary extracted from the layer.
func TestImages(t *testing.T) {
	bins := binDir(t)
	out := t.TempDir()
	meta := Meta{Version: "v1.2.3", Revision: "0123abc", Source: "https://github.com/mco-org/mco"}
	for _, bin := range Binaries {
		t.Run(bin, func(t *testing.T) {
			path, err := Write(filepath.Join(bins, bin), out, meta)
			if err != nil {
				t.Fatal(err)
			}
			tag, _ := Tag(bin, meta.Version)
			img, err := tarball.ImageFromPath(path, &tag)
			if err != nil {
				t.Fatalf("read %s back as %s: %v", path, tag, err)
			}
			cfg, err := img.ConfigFile()
			if err != nil {
				t.Fatal(err)
			}
			entry := BinDir + "/" + bin
			if cfg.Config.User != User || len(cfg.Config.Entrypoint) != 1 || cfg.Config.Entrypoint[0] != entry || cfg.OS != "linux" {
				t.Errorf("config: user %q, entrypoint %v, os %s", cfg.Config.User, cfg.Config.Entrypoint, cfg.OS)
			}
			for k, v := range meta.Labels() {
				if cfg.Config.Labels[k] != v {
					t.Errorf("label %s = %q, want %q", k, cfg.Config.Labels[k], v)
				}
			}
			layers, err := img.Layers()
			if err != nil || len(layers) != 1 {
				t.Fatalf("layers: %d, %v (one: the binary on an empty base)", len(layers), err)
			}
			extracted := extract(t, layers[0].Uncompressed, strings.TrimPrefix(entry, "/"))
			if f, err := elf.Open(extracted); err != nil {
				t.Errorf("%s is not an ELF binary: %v", bin, err)
			} else {
				if f.Section(".interp") != nil {
					t.Errorf("%s is dynamically linked: an empty base cannot run it", bin)
				}
				f.Close()
			}
			ver, err := exec.Command(extracted, "--version").CombinedOutput()
			if err != nil || !strings.Contains(string(ver), "v") {
				t.Errorf("%s --version: %v %s", bin, err, ver)
			}
		})
	}
}

// extract writes the file at name in a layer to a temporary executable.
func extract(t *testing.T, open func() (io.ReadCloser, error), name string) string {
	t.Helper()
	rc, err := open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	tr := tar.NewReader(rc)
	for {
		hdr, err := tr.Next()
		if err != nil {
			t.Fatalf("%s not in the layer: %v", name, err)
		}
		if hdr.Name != name {
			continue
		}
		if hdr.Mode&0o111 == 0 {
			t.Errorf("%s is not executable in the layer (mode %o)", name, hdr.Mode)
		}
		path := filepath.Join(t.TempDir(), filepath.Base(name))
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o755)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(f, tr); err != nil {
			t.Fatal(err)
		}
		f.Close()
		return path
	}
}
