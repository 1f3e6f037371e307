package chart

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// member137 serves what a 1.37 member serves, as far as the test chart asks.
var member137 = Member{KubeVersion: "v1.37.2", APIVersions: []string{"v1", "apps/v1", "batch/v1", "policy/v1", "policy/v1/PodDisruptionBudget"}}

func names(objs []Object) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.Object.GetKind()+"/"+o.Object.GetName())
	}
	return out
}

func find(t *testing.T, objs []Object, kind, name string) *unstructured.Unstructured {
	t.Helper()
	for _, o := range objs {
		if o.Object.GetKind() == kind && o.Object.GetName() == name {
			return o.Object
		}
	}
	t.Fatalf("no %s %s among %v", kind, name, names(objs))
	return nil
}

func TestRender(t *testing.T) {
	ch, err := loader.LoadDir("testdata/log-collector")
	if err != nil {
		t.Fatal(err)
	}
	rel := Release{Name: "lc", Namespace: "logging"}
	values := map[string]any{"region": "eu-west", "resources": map[string]any{"limits": nil}}

	objs, err := Render(context.Background(), ch, rel, values, member137)
	if err != nil {
		t.Fatal(err)
	}
	// Helm's install order puts PodDisruptionBudgets before
	// ServiceAccounts, and ConfigMaps before Deployments.
	want := "[CustomResourceDefinition/logsinks.logging.example.com Job/lc-prepare PodDisruptionBudget/lc ServiceAccount/lc " +
		"ConfigMap/lc-config Deployment/lc ConfigMap/lc-installed]"
	if got := fmt.Sprint(names(objs)); got != want {
		t.Errorf("objects, in order:\n got %s\nwant %s\n(CRDs first, pre-install hooks, Helm's install order, other hooks; no test hook, no NOTES)", got, want)
	}
	if !objs[0].CRD || objs[1].CRD {
		t.Errorf("only the crds/ objects are marked CRD")
	}
	var kept []string
	for _, o := range objs {
		if o.Kept() {
			kept = append(kept, o.Object.GetKind()+"/"+o.Object.GetName())
		}
	}
	if fmt.Sprint(kept) != "[CustomResourceDefinition/logsinks.logging.example.com ConfigMap/lc-config]" {
		t.Errorf("kept on uninstall: %v, want the chart's CRD and the object marked keep", kept)
	}
	deploy := find(t, objs, "Deployment", "lc")
	env, _, _ := unstructured.NestedSlice(deploy.Object, "spec", "template", "spec", "containers")
	got := fmt.Sprint(env)
	for _, s := range []string{"REGION value:eu-west", "KUBE value:v1.37.2", "registry.example.com/log-collector:2.1"} {
		if !strings.Contains(got, s) {
			t.Errorf("the Deployment's container lacks %q: %s", s, got)
		}
	}
	if strings.Contains(got, "limits") {
		t.Errorf("a null in the values removes the chart's default: %s", got)
	}
	if found, _, _ := unstructured.NestedString(find(t, objs, "ConfigMap", "lc-config").Object, "data", "found"); found != "0" {
		t.Errorf("lookup finds nothing: %q", found)
	}

	// A member without policy/v1 PodDisruptionBudgets gets none: the
	// member's API list alone, not Helm's default set.
	older := Member{KubeVersion: "v1.34.4", APIVersions: []string{"v1", "apps/v1", "batch/v1"}}
	objs, err = Render(context.Background(), ch, rel, values, older)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names(objs) {
		if strings.HasPrefix(n, "PodDisruptionBudget/") {
			t.Errorf("rendered %s for a member that does not serve it", n)
		}
	}
	if kube := fmt.Sprint(find(t, objs, "Deployment", "lc").Object); !strings.Contains(kube, "v1.34.4") {
		t.Errorf("the member's own version is rendered: %s", kube)
	}
}

func TestRenderErrors(t *testing.T) {
	ch, err := loader.LoadDir("testdata/log-collector")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Render(context.Background(), ch, Release{Name: "lc", Namespace: "logging"}, nil, Member{KubeVersion: "latest"}); err == nil ||
		!strings.Contains(err.Error(), `kubernetes version "latest"`) {
		t.Errorf("a member without a version: %v", err)
	}
	broken := *ch
	broken.Templates = append(broken.Templates[:0:0], ch.Templates...)
	for i, f := range broken.Templates {
		if strings.HasSuffix(f.Name, "config.yaml") {
			copied := *f
			copied.Data = []byte("data: {{ .Values.missing.deeper }}")
			broken.Templates[i] = &copied
		}
	}
	if _, err := Render(context.Background(), &broken, Release{Name: "lc", Namespace: "logging"}, nil, member137); err == nil ||
		!strings.Contains(err.Error(), "config.yaml") {
		t.Errorf("a template that fails names its file: %v", err)
	}
}
