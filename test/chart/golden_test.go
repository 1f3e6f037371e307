package chart

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// generated matches the values Helm makes up at each rendering (keys,
// certificates, the admin token, the hash of the CA a certificate was
// issued under); they are replaced before comparing. Multi-line values (a
// user's CA bundle) are not: they come from the values file.
var generated = regexp.MustCompile(`(?m)^(\s*(?:tls\.crt|tls\.key|ca\.crt|token|tokens\.csv|sa\.key|encryption\.yaml|mco-org\.github\.io/issued-for|certificate-authority-data|caBundle): )([^|\s].*)$`)

func mask(manifest string) string { return generated.ReplaceAllString(manifest, "${1}<generated>") }

// TestGolden renders the chart with each test values file (and once with
// the defaults) and compares with testdata/<name>.golden.yaml. go test
// ./test/chart -run TestGolden -update rewrites them.
func TestGolden(t *testing.T) {
	monitoring := []string{"--api-versions", "monitoring.coreos.com/v1/ServiceMonitor", "--api-versions", "monitoring.coreos.com/v1/PrometheusRule"}
	cases := []struct {
		name string
		args []string
	}{
		{"defaults", nil},
		{"ha", append([]string{"-f", "testdata/ha.values.yaml"}, monitoring...)},
		{"certmanager", []string{"-f", "testdata/certmanager.values.yaml"}},
		{"existing", []string{"-f", "testdata/existing.values.yaml"}},
		{"aggregated", []string{"-f", "testdata/aggregated.values.yaml"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := mask(render(t, tc.args...))
			path := filepath.Join("testdata", tc.name+".golden.yaml")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test ./test/chart -run TestGolden -update writes it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("rendering differs from %s (-want +got; -update rewrites it):\n%s", path, diff)
			}
		})
	}
}

// TestMonitoringNeedsCRDs: without monitoring.coreos.com/v1 the chart
// renders no ServiceMonitor or PrometheusRule.
func TestMonitoringNeedsCRDs(t *testing.T) {
	out := render(t)
	for _, kind := range []string{"ServiceMonitor", "PrometheusRule"} {
		if strings.Contains(out, "kind: "+kind) {
			t.Errorf("%s rendered without the monitoring CRDs", kind)
		}
	}
}
