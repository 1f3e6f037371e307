// Package chart checks charts/mco with Helm itself (built into _output/bin
// by hack/build-tools.sh): lint, the values schema, golden output, the flags
// it passes to mco's binaries, and a run of the rendered configuration.
package chart

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// Release and namespace every rendering in these tests uses.
const (
	release   = "mco"
	namespace = "mco-system"
)

// root is the repository root; binDir holds what make test built.
var (
	root   = mustAbs("../..")
	binDir = filepath.Join(root, "_output", "bin")
	chart  = filepath.Join(root, "charts", "mco")
)

func mustAbs(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		panic(err)
	}
	return abs
}

// bin returns the path of a built binary, failing when it is missing.
func bin(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(binDir, name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s is missing: run make test (hack/test.sh builds it): %v", p, err)
	}
	return p
}

// helm runs the helm binary and returns its standard output, or an error
// holding its standard error.
func helm(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(bin(t, "helm"), args...)
	// Helm keeps no state of these tests in the user's home.
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HELM_CACHE_HOME="+home, "HELM_CONFIG_HOME="+home, "HELM_DATA_HOME="+home)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), errors.New(strings.TrimSpace(stderr.String()) + ": " + err.Error())
	}
	return stdout.String(), nil
}

// render runs helm template on the chart with the given extra arguments.
func render(t *testing.T, args ...string) string {
	t.Helper()
	out, err := helm(t, append([]string{"template", release, chart, "--namespace", namespace}, args...)...)
	if err != nil {
		t.Fatalf("helm template %v: %v", args, err)
	}
	return out
}

// objects decodes a multi-document YAML stream.
func objects(t *testing.T, manifest string) []*unstructured.Unstructured {
	t.Helper()
	dec := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(manifest), 4096)
	var objs []*unstructured.Unstructured
	for {
		u := &unstructured.Unstructured{}
		if err := dec.Decode(&u.Object); err != nil {
			if errors.Is(err, io.EOF) {
				return objs
			}
			t.Fatalf("decode rendered manifest: %v", err)
		}
		if len(u.Object) > 0 {
			objs = append(objs, u)
		}
	}
}

// find returns the object of that kind and name.
func find(t *testing.T, objs []*unstructured.Unstructured, kind, name string) *unstructured.Unstructured {
	t.Helper()
	for _, o := range objs {
		if o.GetKind() == kind && o.GetName() == name {
			return o
		}
	}
	t.Fatalf("no %s %s in the rendered chart", kind, name)
	return nil
}

// valuesCases are helm arguments for the defaults and for each test values
// file under testdata/.
func valuesCases(t *testing.T) [][]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.values.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cases := [][]string{nil}
	for _, f := range files {
		cases = append(cases, []string{"-f", f})
	}
	return cases
}
