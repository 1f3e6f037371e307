package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"

	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/testing/cli"
	"github.com/mco-org/mco/test/e2e/framework"
)

// members are the local-up members, in order.
var members = []string{"member1", "member2", "member3"}

// mcoClients returns typed clients of mco-apiserver.
func mcoClients(t *testing.T) (kubernetes.Interface, mcoclient.Interface) {
	t.Helper()
	return framework.MCOKube(t), framework.MCO(t)
}

// memberClient returns a client of one member.
func memberClient(t *testing.T, name string) kubernetes.Interface {
	t.Helper()
	c, err := framework.Env.Member(name).Client()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// kubectl runs the real kubectl against mco and returns its output.
func kubectl(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	return mcoKubectl().Must(t, stdin, args...)
}

func kubectlErr(stdin string, args ...string) (string, error) {
	return mcoKubectl().Run(stdin, args...)
}

func mcoKubectl() cli.Kubectl {
	return cli.Kubectl{Bin: filepath.Join(framework.BinDir, "kubectl"), Kubeconfig: framework.Env.MCO.Kubeconfig}
}

// eventually polls cond until it holds, failing with its last message.
func eventually(t *testing.T, timeout time.Duration, what string, cond func(ctx context.Context) (bool, string)) {
	t.Helper()
	cli.Eventually(t, timeout, what, cond)
}

// memberReplicas returns spec.replicas of a Deployment in each member (-1
// when it is absent there, -2 when the member did not answer).
func memberReplicas(ctx context.Context, t *testing.T, ns, name string) map[string]int32 {
	return replicasIn(ctx, t, ns, name, members)
}

// memberAnswerTimeout bounds one read from a member in a poll: a member a
// test has paused does not answer, and the poll goes on with the others.
const memberAnswerTimeout = 3 * time.Second

// replicasIn returns spec.replicas of a Deployment in each of the given
// members, as memberReplicas does.
func replicasIn(ctx context.Context, t *testing.T, ns, name string, in []string) map[string]int32 {
	out := map[string]int32{}
	for _, m := range in {
		ctx, cancel := context.WithTimeout(ctx, memberAnswerTimeout)
		d, err := memberClient(t, m).AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		cancel()
		switch {
		case apierrors.IsNotFound(err):
			out[m] = -1
		case err != nil:
			out[m] = -2
		default:
			out[m] = *d.Spec.Replicas
		}
	}
	return out
}

// waitReplicas waits until the members run the given replica counts (-1:
// absent); it reads only the members named.
func waitReplicas(t *testing.T, ns, name string, want map[string]int32) {
	t.Helper()
	_, mco := mcoClients(t)
	var in []string
	for _, m := range members {
		if _, ok := want[m]; ok {
			in = append(in, m)
		}
	}
	eventually(t, 90*time.Second, fmt.Sprintf("deployment %s/%s in members %v", ns, name, want), func(ctx context.Context) (bool, string) {
		got := replicasIn(ctx, t, ns, name, in)
		for m, w := range want {
			if got[m] != w {
				return false, fmt.Sprintf("members have %v; %s", got, bindingSummary(ctx, mco, ns, name+"-deployment"))
			}
		}
		return true, ""
	})
}

// bindingSummary tells where a binding is scheduled and its conditions,
// for failure messages.
func bindingSummary(ctx context.Context, mco mcoclient.Interface, ns, name string) string {
	b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return fmt.Sprintf("binding %s: %v", name, err)
	}
	var conds []string
	for _, c := range b.Status.Conditions {
		conds = append(conds, fmt.Sprintf("%s=%s (%s: %s)", c.Type, c.Status, c.Reason, c.Message))
	}
	return fmt.Sprintf("binding %s scheduled to %v, conditions %v", name, b.Spec.Clusters, conds)
}

// namespace creates a namespace on mco for this test alone, named prefix
// and a random suffix, deleted when the test ends (framework.Namespace).
func namespace(t *testing.T, prefix string) string {
	t.Helper()
	return framework.Namespace(t, prefix)
}

// deploymentYAML is a Deployment of nginx with a CPU request per replica.
func deploymentYAML(ns, name string, replicas int, cpu string) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: %[2]s, namespace: %[1]s, labels: {app: %[2]s}}
spec:
  replicas: %[3]d
  selector: {matchLabels: {app: %[2]s}}
  template:
    metadata: {labels: {app: %[2]s}}
    spec:
      containers:
      - name: app
        image: nginx:1.27
        resources: {requests: {cpu: %[4]q}}
`, ns, name, replicas, cpu)
}

// duplicatedPolicy is a PropagationPolicy named name that sends the
// Deployment of that name, whole, to each of clusters ("member1, member2").
func duplicatedPolicy(ns, name, clusters string) string {
	return fmt.Sprintf(`apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: %[2]s, namespace: %[1]s}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: %[2]s}]
  placement:
    clusterAffinity: {clusterNames: [%[3]s]}
    replicaScheduling: {replicaSchedulingType: Duplicated}
`, ns, name, clusters)
}

// memberDeployment gets a Deployment from a member.
func memberDeployment(t *testing.T, member, ns, name string) *appsv1.Deployment {
	t.Helper()
	d, err := memberClient(t, member).AppsV1().Deployments(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("%s: %v", member, err)
	}
	return d
}

// memberObject names one object expected in the members; Namespace is
// empty for a cluster-scoped one.
type memberObject struct {
	GVR             schema.GroupVersionResource
	Namespace, Name string
}

// waitInMembers waits until each object is present (or, with present
// false, gone) in each of the members.
func waitInMembers(t *testing.T, members []string, objects []memberObject, present bool) {
	t.Helper()
	for _, m := range members {
		client := memberDynamic(t, m)
		for _, o := range objects {
			what := fmt.Sprintf("%s %s/%s in %s present=%v", o.GVR.Resource, o.Namespace, o.Name, m, present)
			eventually(t, 90*time.Second, what, func(ctx context.Context) (bool, string) {
				_, err := client.Resource(o.GVR).Namespace(o.Namespace).Get(ctx, o.Name, metav1.GetOptions{})
				if present {
					return err == nil, fmt.Sprint(err)
				}
				return apierrors.IsNotFound(err), fmt.Sprint(err)
			})
		}
	}
}
