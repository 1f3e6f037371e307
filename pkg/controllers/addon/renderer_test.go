package addon

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mco-org/mco/pkg/addon/chart"
	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/metrics"
)

// sources are ConfigMaps and Secrets by namespace/name.
type sources struct {
	configMaps map[string]*corev1.ConfigMap
	secrets    map[string]*corev1.Secret
}

func (s sources) ConfigMap(ns, name string) (*corev1.ConfigMap, error) {
	if cm, ok := s.configMaps[ns+"/"+name]; ok {
		return cm, nil
	}
	return nil, apierrors.NewNotFound(corev1.Resource("configmaps"), name)
}

func (s sources) Secret(ns, name string) (*corev1.Secret, error) {
	if sec, ok := s.secrets[ns+"/"+name]; ok {
		return sec, nil
	}
	return nil, apierrors.NewNotFound(corev1.Resource("secrets"), name)
}

// serveChart serves the test chart as a Helm repository on loopback.
func serveChart(t *testing.T) string {
	t.Helper()
	ch, err := loader.LoadDir("../../addon/chart/testdata/log-collector")
	if err != nil {
		t.Fatal(err)
	}
	path, err := chartutil.Save(ch, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	archive, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/index.yaml":
			fmt.Fprint(w, "apiVersion: v1\nentries:\n  log-collector:\n  - {version: 2.1.0, urls: [log-collector-2.1.0.tgz]}\n")
		case "/log-collector-2.1.0.tgz":
			_, _ = w.Write(archive)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(server.Close)
	return server.URL
}

func member(name, region string, labels map[string]string, apis ...string) *clusterv1alpha1.Cluster {
	c := &clusterv1alpha1.Cluster{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
		Spec:   clusterv1alpha1.ClusterSpec{Region: region},
		Status: clusterv1alpha1.ClusterStatus{KubernetesVersion: "v1.37.2"}}
	for _, gv := range apis {
		c.Status.APIEnablements = append(c.Status.APIEnablements, clusterv1alpha1.APIEnablement{GroupVersion: gv})
	}
	return c
}

func deploymentEnv(t *testing.T, r *Rendered) string {
	t.Helper()
	for _, o := range r.Objects {
		if o.Object.GetKind() == "Deployment" {
			replicas, _, _ := unstructured.NestedInt64(o.Object.Object, "spec", "replicas")
			containers, _, _ := unstructured.NestedSlice(o.Object.Object, "spec", "template", "spec", "containers")
			return fmt.Sprintf("replicas=%d %v", replicas, containers[0].(map[string]any)["env"])
		}
	}
	t.Fatal("no Deployment rendered")
	return ""
}

func TestRenderer(t *testing.T) {
	repo := serveChart(t)
	js := func(s string) *apiextensionsv1.JSON { return &apiextensionsv1.JSON{Raw: []byte(s)} }
	a := &addonsv1alpha1.Addon{ObjectMeta: metav1.ObjectMeta{Name: "log-collector"}, Spec: addonsv1alpha1.AddonSpec{
		Chart:      addonsv1alpha1.ChartSource{Repository: repo, Name: "log-collector", Version: "2.1.0"},
		Release:    addonsv1alpha1.Release{Name: "lc", Namespace: "logging"},
		Values:     js(`{"region":"${cluster.region}","replicaCount":2}`),
		ValuesFrom: []addonsv1alpha1.ValuesReference{{Kind: "ConfigMap", Namespace: "platform", Name: "lc", Key: "values.yaml"}, {Kind: "Secret", Namespace: "platform", Name: "none", Key: "values.yaml", Optional: true}},
		Overrides:  []addonsv1alpha1.ValuesOverride{{ClusterSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"size": "large"}}, Values: js(`{"replicaCount":5}`)}},
	}}
	m, err := metrics.NewAddons(prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	src := sources{configMaps: map[string]*corev1.ConfigMap{"platform/lc": {Data: map[string]string{"values.yaml": "image:\n  tag: \"2.2\"\n"}}}}
	r := NewRenderer(chart.NewFetcher(), src, func(*addonsv1alpha1.Addon) (*chart.Credentials, error) { return nil, nil }, m)
	ctx := context.Background()

	eu1, err := r.Render(ctx, a, member("member1", "eu", nil, "v1", "apps/v1"))
	if err != nil {
		t.Fatal(err)
	}
	if env := deploymentEnv(t, eu1); !strings.Contains(env, "replicas=2") || !strings.Contains(env, "value:eu") {
		t.Errorf("member1: %s, want 2 replicas in region eu", env)
	}
	if eu1.SetBy["image"] != "spec.valuesFrom[0] (ConfigMap platform/lc, key values.yaml)" || eu1.SetBy["region"] != "spec.values" {
		t.Errorf("set by %v", eu1.SetBy)
	}
	eu2, err := r.Render(ctx, a, member("member2", "eu", nil, "v1", "apps/v1"))
	if err != nil {
		t.Fatal(err)
	}
	if n := testutil.ToFloat64(m.Renders); n != 1 || eu2.ValuesHash != eu1.ValuesHash {
		t.Errorf("two clusters with the same values and APIs: %v renders, hashes %s %s; want one render", n, eu1.ValuesHash, eu2.ValuesHash)
	}
	large, err := r.Render(ctx, a, member("member3", "us", map[string]string{"size": "large"}, "v1", "apps/v1"))
	if err != nil {
		t.Fatal(err)
	}
	if env := deploymentEnv(t, large); !strings.Contains(env, "replicas=5") || !strings.Contains(env, "value:us") {
		t.Errorf("member3: %s, want the override's 5 replicas in region us", env)
	}
	if _, err := r.Render(ctx, a, member("member4", "eu", nil, "v1", "apps/v1", "policy/v1")); err != nil {
		t.Fatal(err)
	}
	if renders, hits, fetches := testutil.ToFloat64(m.Renders), testutil.ToFloat64(m.RenderHits), testutil.ToFloat64(m.Fetches.WithLabelValues("success")); renders != 3 || hits != 1 || fetches != 1 {
		t.Errorf("metrics: %v renders, %v cache hits, %v fetches; want 3 (one per distinct values and APIs), 1, 1 (the chart's cache answers all but the first)", renders, hits, fetches)
	}

	noRegion := member("member5", "", nil, "v1")
	if _, err := r.Render(ctx, a, noRegion); err == nil || !strings.Contains(err.Error(), "region: ${cluster.region}: cluster member5 has an empty spec.region") {
		t.Errorf("a placeholder the cluster cannot fill: %v", err)
	}
	missing := a.DeepCopy()
	missing.Spec.ValuesFrom[1].Optional = false
	if _, err := r.Render(ctx, missing, member("member1", "eu", nil, "v1")); err == nil || !strings.Contains(err.Error(), "spec.valuesFrom[1] (Secret platform/none, key values.yaml): not found") {
		t.Errorf("a required valuesFrom that is absent: %v", err)
	}
	away := a.DeepCopy()
	away.Spec.Chart.Version = "3.0.0"
	if _, err := r.Render(ctx, away, member("member1", "eu", nil, "v1")); err == nil || !strings.Contains(err.Error(), "fetch chart log-collector 3.0.0") {
		t.Errorf("a version the repository lacks: %v", err)
	}
}

func TestMemberOf(t *testing.T) {
	c := &clusterv1alpha1.Cluster{Status: clusterv1alpha1.ClusterStatus{KubernetesVersion: "v1.34.4", APIEnablements: []clusterv1alpha1.APIEnablement{
		{GroupVersion: "apps/v1", Resources: []clusterv1alpha1.APIResource{{Name: "deployments", Kind: "Deployment"}, {Name: "deployments/scale", Kind: "Scale"}}},
		{GroupVersion: "v1", Resources: []clusterv1alpha1.APIResource{{Name: "pods", Kind: "Pod"}}},
	}}}
	m := MemberOf(c)
	if got := strings.Join(m.APIVersions, " "); m.KubeVersion != "v1.34.4" || got != "apps/v1 apps/v1/Deployment v1 v1/Pod" {
		t.Errorf("member %s %q", m.KubeVersion, got)
	}
}
