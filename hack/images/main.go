// Command images writes the container images of mco's binaries as
// tarballs, without Docker: `make images` runs it after the build.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mco-org/mco/pkg/images"
)

func main() {
	binDir := flag.String("bin-dir", "_output/bin", "where the (static) binaries are")
	out := flag.String("out", "_output/images", "where the image tarballs go")
	meta := images.Meta{}
	flag.StringVar(&meta.Version, "version", "v0.0.0-dev", "image tag and version label")
	flag.StringVar(&meta.Revision, "revision", "", "source revision label (git commit)")
	flag.StringVar(&meta.Source, "source", "https://github.com/mco-org/mco", "source label")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "images:", err)
		os.Exit(1)
	}
	for _, bin := range images.Binaries {
		path, err := images.Write(filepath.Join(*binDir, bin), *out, meta)
		if err != nil {
			fmt.Fprintln(os.Stderr, "images:", err)
			os.Exit(1)
		}
		tag, _ := images.Tag(bin, meta.Version)
		fmt.Printf("%s\t%s\n", path, tag)
	}
}
