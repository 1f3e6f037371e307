package addon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInstallObjects(t *testing.T) {
	file := filepath.Join(t.TempDir(), "values.yaml")
	if err := os.WriteFile(file, []byte("image: {tag: \"2.1\", pull: Always}\nreplicaCount: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		fl         installFlags
		wantValues string
		wantPlace  string
		wantErr    string
	}{
		{name: "files then --set, maps merged key by key", fl: installFlags{valueFiles: []string{file}, set: []string{"image.tag=2.2", "replicaCount=3", "zones={a,b}"}, clusters: []string{"member1"}},
			wantValues: `{"image":{"pull":"Always","tag":"2.2"},"replicaCount":3,"zones":["a","b"]}`, wantPlace: "names [member1]"},
		{name: "no values, placed by label", fl: installFlags{selector: "environment=production"}, wantPlace: "labels map[environment:production]"},
		{name: "a bad --set", fl: installFlags{set: []string{"a=b,,"}, clusters: []string{"m"}}, wantErr: "--set a=b,,"},
		{name: "a bad selector", fl: installFlags{selector: "a in (b)"}, wantErr: "--selector"},
		{name: "a missing file", fl: installFlags{valueFiles: []string{"/nonexistent.yaml"}}, wantErr: "--values"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.fl.repo, tt.fl.chart, tt.fl.version, tt.fl.namespace, tt.fl.createNamespace = "https://charts.example.com", "lc", "2.1.0", "logging", true
			a, cpp, err := tt.fl.objects("lc")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if a.Spec.Values != nil {
				got = string(a.Spec.Values.Raw)
			}
			if got != tt.wantValues {
				t.Errorf("values %s, want %s", got, tt.wantValues)
			}
			if a.Spec.Release.Name != "lc" || a.Spec.Release.Namespace != "logging" || !a.Spec.Release.CreateNamespace || a.Spec.Chart.Version != "2.1.0" {
				t.Errorf("addon spec %+v", a.Spec)
			}
			aff := cpp.Spec.Placement.ClusterAffinity
			place := ""
			if aff.LabelSelector != nil {
				place = "labels " + fmtMap(aff.LabelSelector.MatchLabels)
			} else {
				place = "names [" + strings.Join(aff.ClusterNames, " ") + "]"
			}
			if place != tt.wantPlace || cpp.Spec.ResourceSelectors[0].Kind != "Addon" || cpp.Annotations[ManagedByAnnotation] == "" {
				t.Errorf("policy placement %s, want %s; %+v", place, tt.wantPlace, cpp)
			}
		})
	}
}

func fmtMap(m map[string]string) string {
	var parts []string
	for k, v := range m {
		parts = append(parts, k+":"+v)
	}
	return "map[" + strings.Join(parts, " ") + "]"
}
