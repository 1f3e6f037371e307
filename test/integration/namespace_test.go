package integration

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/mco-org/mco/test/integration/framework"
)

// TestNamespaceLifecycle: system namespaces exist, objects cannot be created
// in a missing namespace, and deleting a namespace removes its objects.
func TestNamespaceLifecycle(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	out := s.MustKubectl(t, "", "get", "namespaces", "-o", "name")
	for _, ns := range []string{"default", "kube-system", "kube-public"} {
		if !strings.Contains(out, "namespace/"+ns) {
			t.Errorf("namespace %s missing: %s", ns, out)
		}
	}

	_, errOut, err := s.Kubectl(t, testdata(t, "deployment.yaml"), "apply", "-n", "nowhere", "-f", "-")
	if err == nil || !strings.Contains(errOut, "not found") {
		t.Errorf("create in a missing namespace: err=%v stderr=%s", err, errOut)
	}

	s.MustKubectl(t, "", "create", "namespace", "team-a")
	s.MustKubectl(t, testdata(t, "deployment.yaml"), "apply", "-n", "team-a", "-f", "-")
	s.MustKubectl(t, testdata(t, "propagationpolicy.yaml"), "apply", "-n", "team-a", "-f", "-")
	s.MustKubectl(t, "", "create", "configmap", "settings", "-n", "team-a", "--from-literal=a=b")
	s.MustKubectl(t, "", "delete", "namespace", "team-a", "--wait=false")
	// The policy's finalizer holds the namespace until the policy controller,
	// not running here, lets go of the policy; do its part.
	releasePolicy(t, s, "team-a", "nginx-propagation")

	deadline := time.Now().Add(60 * time.Second)
	for {
		_, errOut, err := s.Kubectl(t, "", "get", "namespace", "team-a")
		if err != nil && strings.Contains(errOut, "NotFound") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("namespace team-a still there: %s", errOut)
		}
		time.Sleep(500 * time.Millisecond)
	}
	for _, r := range []string{"deployments", "propagationpolicies", "configmaps"} {
		out, _, _ := s.Kubectl(t, "", "get", r, "-n", "team-a", "-o", "name")
		if strings.TrimSpace(out) != "" {
			t.Errorf("%s left in deleted namespace: %s", r, out)
		}
	}
	_, errOut, err = s.Kubectl(t, "", "delete", "namespace", "kube-system")
	if err == nil {
		t.Errorf("deleting kube-system succeeded; stderr=%s", errOut)
	}
}

// releasePolicy removes the finalizers of a PropagationPolicy once it is
// being deleted, as mco-controller-manager would.
func releasePolicy(t *testing.T, s *framework.APIServer, namespace, name string) {
	t.Helper()
	err := wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		out := s.MustKubectl(t, "", "get", "pp", name, "-n", namespace, "-o", "jsonpath={.metadata.deletionTimestamp}")
		return out != "", nil
	})
	if err != nil {
		t.Fatalf("policy %s/%s was not deleted", namespace, name)
	}
	s.MustKubectl(t, "", "patch", "pp", name, "-n", namespace, "--type=merge", "-p", `{"metadata":{"finalizers":null}}`)
}

// TestNamespaceDeletionInPages: a namespace holding more objects of a kind
// than one delete request takes is emptied page by page, objects held by a
// finalizer keep it Terminating without holding back the rest, and it goes
// once they are released.
func TestNamespaceDeletionInPages(t *testing.T) {
	t.Parallel()
	const ns, count = "many", 1100
	s := framework.StartAPIServer(t, "")
	cfg := rest.CopyConfig(s.Config)
	cfg.QPS, cfg.Burst = 500, 1000
	client := kubernetes.NewForConfigOrDie(cfg)
	ctx := context.Background()
	if _, err := client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// The held one sorts first, so that the first page is never empty.
	held := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a-held", Finalizers: []string{"example.com/hold"}}}
	if _, err := client.CoreV1().ConfigMaps(ns).Create(ctx, held, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	var g errgroup.Group
	g.SetLimit(16)
	for i := range count {
		g.Go(func() error {
			cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%04d", i)}}
			_, err := client.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{})
			return err
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if err := client.CoreV1().Namespaces().Delete(ctx, ns, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	var left int
	err := wait.PollUntilContextTimeout(ctx, 500*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
		list, err := client.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		left = len(list.Items)
		return left == 1 && list.Items[0].Name == held.Name, nil
	})
	if err != nil {
		t.Fatalf("%d ConfigMaps left, want only the held one: %v", left, err)
	}
	got, err := client.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
	if err != nil || got.Status.Phase != corev1.NamespaceTerminating {
		t.Fatalf("namespace with a held object: %v (err %v), want it Terminating", got.Status.Phase, err)
	}
	s.MustKubectl(t, "", "patch", "configmap", held.Name, "-n", ns, "--type=merge", "-p", `{"metadata":{"finalizers":null}}`)
	err = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
		_, err := client.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})
	if err != nil {
		t.Fatalf("namespace %s not gone after its last object was released: %v", ns, err)
	}
}
