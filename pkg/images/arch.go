package images

import (
	"bytes"
	"io"
	"runtime"
)

// goarch is the architecture the binaries were built for: this machine's.
func goarch() string { return runtime.GOARCH }

func opener(b []byte) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
}
