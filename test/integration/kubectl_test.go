// Package integration drives a real mco-apiserver process with the real
// kubectl: the path a user takes.
package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mco-org/mco/test/integration/framework"
)

func testdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestApplyAndGetRoundTrip applies each kind from YAML and reads it back:
// every field the user wrote comes back unchanged.
func TestApplyAndGetRoundTrip(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	cases := []struct {
		file, resource, name string
	}{
		{"deployment.yaml", "deployment", "nginx"},
		{"propagationpolicy.yaml", "propagationpolicy", "nginx-propagation"},
		{"overridepolicy.yaml", "overridepolicy", "nginx-override"},
		{"clusterpropagationpolicy.yaml", "clusterpropagationpolicy", "all-namespaces"},
		{"cluster.yaml", "cluster", "member1"},
		{"clustertaintpolicy.yaml", "clustertaintpolicy", "gpu-broken"},
	}
	for _, c := range cases {
		in := testdata(t, c.file)
		out := s.MustKubectl(t, in, "apply", "-f", "-")
		if !strings.Contains(out, c.name) {
			t.Errorf("apply %s printed %q", c.file, out)
		}
		got := s.MustKubectl(t, "", "get", c.resource, c.name, "-o", "yaml")
		assertSubset(t, c.file, in, got)
	}
	// Short names and the category work for the policy kinds.
	out := s.MustKubectl(t, "", "get", "pp,op,cpp")
	for _, name := range []string{"nginx-propagation", "nginx-override", "all-namespaces"} {
		if !strings.Contains(out, name) {
			t.Errorf("kubectl get pp,op,cpp misses %s:\n%s", name, out)
		}
	}
	out = s.MustKubectl(t, "", "get", "clusters")
	if !strings.Contains(out, "VERSION") || !strings.Contains(out, "MODE") || !strings.Contains(out, "Push") {
		t.Errorf("kubectl get clusters lacks the VERSION/MODE columns:\n%s", out)
	}
}

// assertSubset checks that every field of want (YAML) is in got (YAML).
func assertSubset(t *testing.T, what, want, got string) {
	t.Helper()
	var w, g map[string]any
	if err := yaml.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal([]byte(got), &g); err != nil {
		t.Fatal(err)
	}
	if path, ok := subset(w, g, ""); !ok {
		t.Errorf("%s: field %s differs after a round trip\ngot:\n%s", what, path, got)
	}
}

func subset(want, got any, path string) (string, bool) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return path, false
		}
		for k, v := range w {
			if p, ok := subset(v, g[k], path+"."+k); !ok {
				return p, false
			}
		}
		return "", true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return path, false
		}
		for i := range w {
			if p, ok := subset(w[i], g[i], path+"[]"); !ok {
				return p, false
			}
		}
		return "", true
	default:
		return path, want == got
	}
}

// TestShippedExamplesApply applies artifacts/examples as a user would.
func TestShippedExamplesApply(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	out := s.MustKubectl(t, "", "apply", "-f", filepath.Join("..", "..", "artifacts", "examples"))
	for _, want := range []string{"deployment.apps/nginx", "propagationpolicy.policy.karmada.io/nginx-propagation", "overridepolicy.policy.karmada.io/nginx-override"} {
		if !strings.Contains(out, want) {
			t.Errorf("apply of artifacts/examples printed %q, missing %s", out, want)
		}
	}
}
