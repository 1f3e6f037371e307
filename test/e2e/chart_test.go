package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/mco-org/mco/pkg/testing/localcluster"
	"github.com/mco-org/mco/test/e2e/framework"
)

// TestHelmChartInstall installs charts/mco with the real helm into
// member1's kube-apiserver (kwok runs the pods as fakes, so --wait sees
// every Deployment and the etcd StatefulSet ready), upgrades it — the PKI,
// the admin token and the keys Helm generated stay — and uninstalls it,
// leaving nothing of the chart in the namespace.
func TestHelmChartInstall(t *testing.T) {
	framework.Parallel(t)
	m := framework.Env.Member("member1")
	const ns = "mco-chart"
	root := filepath.Join(framework.BinDir, "..", "..")
	chart := filepath.Join(root, "charts", "mco")
	values := filepath.Join(root, "test", "chart", "testdata", "install.values.yaml")
	helm := func(args ...string) string {
		t.Helper()
		return runHelm(t, m.Kubeconfig, args...)
	}
	kube := memberClient(t, "member1")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	t.Cleanup(func() {
		_ = kube.CoreV1().Namespaces().Delete(context.Background(), ns, metav1.DeleteOptions{})
	})

	out := helm("install", "mco", chart, "-n", ns, "--create-namespace", "-f", values, "--wait", "--timeout", "3m")
	if !strings.Contains(out, "mco-admin-kubeconfig") {
		t.Errorf("install notes do not name the admin kubeconfig Secret:\n%s", out)
	}
	before := chartSecrets(ctx, t, kube, ns)
	for _, name := range []string{"mco-ca", "mco-apiserver-tls", "mco-admin-token", "mco-service-account", "mco-encryption"} {
		if len(before[name]) == 0 {
			t.Errorf("install created no Secret %s", name)
		}
	}

	helm("upgrade", "mco", chart, "-n", ns, "-f", values, "--set", "apiserver.replicas=2", "--wait", "--timeout", "3m")
	d, err := kube.AppsV1().Deployments(ns).Get(ctx, "mco-apiserver", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if *d.Spec.Replicas != 2 || d.Status.AvailableReplicas != 2 {
		t.Errorf("after the upgrade mco-apiserver wants %d replicas and has %d available, want 2", *d.Spec.Replicas, d.Status.AvailableReplicas)
	}
	after := chartSecrets(ctx, t, kube, ns)
	for name, data := range before {
		if after[name] != data {
			t.Errorf("the upgrade changed Secret %s; generated keys and certificates must stay", name)
		}
	}

	helm("uninstall", "mco", "-n", ns, "--wait", "--timeout", "3m")
	if left := leftovers(ctx, t, m, ns); len(left) > 0 {
		t.Errorf("uninstall left in %s: %v", ns, left)
	}
}

// chartSecrets returns the data of the namespace's Secrets, by name.
func chartSecrets(ctx context.Context, t *testing.T, kube kubernetes.Interface, ns string) map[string]string {
	t.Helper()
	list, err := kube.CoreV1().Secrets(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, s := range list.Items {
		// Helm's own release records change with every revision.
		if s.Type != "helm.sh/release.v1" {
			out[s.Name] = fmt.Sprint(s.Data) // fmt prints maps in key order
		}
	}
	return out
}

// leftovers lists every object of every namespaced kind in ns, except what
// the cluster itself puts in each namespace (the default ServiceAccount,
// the root CA ConfigMap) and Events.
func leftovers(ctx context.Context, t *testing.T, m *localcluster.Member, ns string) []string {
	t.Helper()
	cfg, err := localcluster.RESTConfig(m.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	kube := memberClient(t, m.Spec.Name)
	dyn := dynamic.NewForConfigOrDie(cfg)
	// Tests running beside this one add and remove CRDs in the members:
	// a group whose discovery fails meanwhile is left out, and a kind
	// gone by the time it is listed holds nothing.
	lists, err := kube.Discovery().ServerPreferredNamespacedResources()
	if err != nil && !discovery.IsGroupDiscoveryFailedError(err) {
		t.Fatal(err)
	}
	var left []string
	for _, l := range lists {
		gv, _ := schema.ParseGroupVersion(l.GroupVersion)
		for _, r := range l.APIResources {
			if !strings.Contains(strings.Join(r.Verbs, ","), "list") || r.Name == "events" {
				continue
			}
			items, err := dyn.Resource(gv.WithResource(r.Name)).Namespace(ns).List(ctx, metav1.ListOptions{})
			if apierrors.IsNotFound(err) {
				continue
			}
			if err != nil {
				t.Fatalf("list %s: %v", r.Name, err)
			}
			for _, it := range items.Items {
				if (r.Name == "serviceaccounts" && it.GetName() == "default") || (r.Name == "configmaps" && it.GetName() == "kube-root-ca.crt") {
					continue
				}
				left = append(left, r.Name+"/"+it.GetName())
			}
		}
	}
	return left
}
