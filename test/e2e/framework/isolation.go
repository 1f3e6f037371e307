package framework

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/testing/cli"
	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// Every test of the suite starts with one of Parallel or Serial (a rule
// checked by rules_test.go):
//
//   - Parallel: the test touches only what it creates (its own namespaces
//     from Namespace, cluster-scoped objects under names of its own,
//     selectors that name them) and asserts nothing about what other
//     tests do. It runs beside other parallel tests, a few at a time
//     (-test.parallel, set by Run).
//   - Serial: the test changes what every test shares (pauses a member,
//     kills or restarts a component, deletes or re-joins a Cluster, taints
//     clusters, changes a component's view of the fleet). The serial
//     tests run one at a time before the parallel group starts (the
//     testing package holds parallel tests until every sequential
//     top-level test has ended), and each waits at its end until the
//     environment is whole again, so that the next test starts from the
//     state the suite began with.

// Parallel marks a test that runs beside other parallel tests.
func Parallel(t *testing.T) {
	t.Helper()
	t.Parallel()
}

// Serial marks a test that changes shared state; why says which. When the
// test ends it waits until the environment has settled (Settle).
func Serial(t *testing.T, why string) {
	t.Helper()
	if strings.TrimSpace(why) == "" {
		t.Fatal("framework.Serial: say what shared state the test changes")
	}
	t.Logf("serial: %s", why)
	t.Cleanup(func() { Settle(t) })
}

// Namespace creates a namespace of mco's for the test alone, named prefix
// and a random suffix, and deletes it when the test ends (keeping it, for
// a look at what is left, when the test failed). Everything the test
// creates in it goes with it: mco withdraws it from the members.
func Namespace(t *testing.T, prefix string) string {
	t.Helper()
	kube := MCOKube(t)
	name := prefix + "-" + utilrand.String(5)
	_, err := kube.CoreV1().Namespaces().Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create namespace %s: %v", name, err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("namespace %s kept: the test failed", name)
			return
		}
		err := kube.CoreV1().Namespaces().Delete(context.Background(), name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("delete namespace %s: %v", name, err)
		}
	})
	return name
}

// MCOKube returns a client of mco-apiserver for built-in kinds.
func MCOKube(t testing.TB) kubernetes.Interface {
	t.Helper()
	return kubernetes.NewForConfigOrDie(mcoConfig(t))
}

// MCO returns a client of mco-apiserver for mco's kinds.
func MCO(t testing.TB) mcoclient.Interface {
	t.Helper()
	return mcoclient.NewForConfigOrDie(mcoConfig(t))
}

// mcoConfig is the admin's client configuration of mco-apiserver.
func mcoConfig(t testing.TB) *rest.Config {
	t.Helper()
	cfg, err := localcluster.RESTConfig(Env.MCO.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// settleTimeout bounds Settle: a member back from a pause is Ready again
// within --cluster-success-threshold, its taints go at the next status
// pass, and a restarted component is ready once it has the leader lease.
const settleTimeout = 2 * time.Minute

// Settle waits until the environment is as the suite began with it: every
// process running, mco-scheduler and mco-controller-manager ready, every
// member joined, Ready and untainted, and every member's nodes Ready. It
// fails t with what it last saw.
func Settle(t testing.TB) {
	t.Helper()
	mco := MCO(t)
	cli.Eventually(t, settleTimeout, "the environment settled after a serial test", func(ctx context.Context) (bool, string) {
		return settled(ctx, t, mco)
	})
}

// settled tells whether the environment is whole, and if not, why not.
func settled(ctx context.Context, t testing.TB, mco mcoclient.Interface) (bool, string) {
	for _, p := range Env.Processes() {
		if !p.Running() {
			return false, fmt.Sprintf("%s (pid %d) is not running", p.Name, p.PID)
		}
	}
	for _, url := range []string{Env.MCO.SchedulerURL(), Env.MCO.ControllerManagerURL()} {
		if err := ready(ctx, url+"/readyz"); err != nil {
			return false, err.Error()
		}
	}
	for _, m := range Env.Members {
		c, err := mco.ClusterV1alpha1().Clusters().Get(ctx, m.Spec.Name, metav1.GetOptions{})
		if err != nil {
			return false, fmt.Sprintf("cluster %s: %v", m.Spec.Name, err)
		}
		if !meta.IsStatusConditionTrue(c.Status.Conditions, "Ready") || len(c.Spec.Taints) > 0 {
			return false, fmt.Sprintf("cluster %s: conditions %v, taints %v", m.Spec.Name, c.Status.Conditions, c.Spec.Taints)
		}
		client, err := m.Client()
		if err != nil {
			return false, err.Error()
		}
		nodes, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, fmt.Sprintf("nodes of %s: %v", m.Spec.Name, err)
		}
		for _, n := range nodes.Items {
			if !nodeReady(n) || len(n.Spec.Taints) > 0 {
				return false, fmt.Sprintf("node %s of %s: ready=%v, taints %v", n.Name, m.Spec.Name, nodeReady(n), n.Spec.Taints)
			}
		}
	}
	return true, ""
}

func nodeReady(n corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// ready answers nil when url answers 200.
func ready(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	client := http.Client{Timeout: 5 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", url, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", url, resp.Status)
	}
	return nil
}
