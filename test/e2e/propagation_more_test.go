package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/test/e2e/framework"
)

// TestDependenciesFollow: with propagateDeps, a ConfigMap a Deployment
// mounts goes where the Deployment goes; shared by two Deployments it goes
// to the union of their clusters, and it leaves a cluster no Deployment
// needs any more.
func TestDependenciesFollow(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-deps")
	withConfig := func(name string) string {
		return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: %[2]s, namespace: %[1]s}
spec:
  replicas: 1
  selector: {matchLabels: {app: %[2]s}}
  template:
    metadata: {labels: {app: %[2]s}}
    spec:
      containers: [{name: app, image: nginx:1.27, envFrom: [{configMapRef: {name: shared-config}}]}]
`, ns, name)
	}
	policy := func(name, cluster string) string {
		return fmt.Sprintf(`apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: %[2]s, namespace: %[1]s}
spec:
  propagateDeps: true
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: %[2]s}]
  placement: {clusterAffinity: {clusterNames: [%[3]s]}}
`, ns, name, cluster)
	}
	kubectl(t, fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shared-config, namespace: %s}\ndata: {greeting: hello}\n", ns)+
		"---\n"+withConfig("one")+"---\n"+policy("one", "member1"), "apply", "-f", "-")
	waitConfigMap(t, ns, "shared-config", map[string]bool{"member1": true, "member2": false, "member3": false})

	kubectl(t, withConfig("two")+"---\n"+policy("two", "member3"), "apply", "-f", "-")
	waitConfigMap(t, ns, "shared-config", map[string]bool{"member1": true, "member2": false, "member3": true})

	kubectl(t, "", "-n", ns, "delete", "deploy", "one")
	waitConfigMap(t, ns, "shared-config", map[string]bool{"member1": false, "member3": true})
}

func waitConfigMap(t *testing.T, ns, name string, want map[string]bool) {
	t.Helper()
	eventually(t, 60*time.Second, fmt.Sprintf("configmap %s/%s in %v", ns, name, want), func(ctx context.Context) (bool, string) {
		got := map[string]bool{}
		for m := range want {
			_, err := memberClient(t, m).CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
			got[m] = err == nil
			if err != nil && !apierrors.IsNotFound(err) {
				return false, err.Error()
			}
		}
		for m, w := range want {
			if got[m] != w {
				return false, fmt.Sprintf("present: %v", got)
			}
		}
		return true, ""
	})
}

// TestSuspendDispatching: suspended, the Works follow the template but the
// members keep what they had; resumed, the members get the latest.
func TestSuspendDispatching(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-suspend")
	policy := func(suspend bool) string {
		return fmt.Sprintf(`apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: %s}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
  suspension: {dispatching: %v}
`, ns, suspend)
	}
	kubectl(t, deploymentYAML(ns, "web", 1, "100m")+"---\n"+policy(false), "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member1": 1})
	kubectl(t, policy(true), "apply", "-f", "-")
	kubectl(t, "", "-n", ns, "scale", "deploy/web", "--replicas=3")
	_, mco := mcoClients(t)
	eventually(t, 30*time.Second, "the Work follows the template while suspended", func(ctx context.Context) (bool, string) {
		b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, "web-deployment", metav1.GetOptions{})
		if err != nil || len(b.Spec.Clusters) == 0 {
			return false, fmt.Sprintf("binding: %v", err)
		}
		return b.Spec.Clusters[0].Replicas == 3, fmt.Sprintf("binding clusters %v", b.Spec.Clusters)
	})
	// The execution controller has seen the suspended Work with the new
	// count when it records the suspension for that generation.
	eventually(t, 30*time.Second, "the execution controller holds the suspended Work", func(ctx context.Context) (bool, string) {
		w, err := mco.WorkV1alpha1().Works(names.ExecutionSpace("member1")).Get(ctx, names.Work("Deployment", "web", ns), metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		c := meta.FindStatusCondition(w.Status.Conditions, workv1alpha1.WorkApplied)
		suspended := w.Spec.SuspendDispatching != nil && *w.Spec.SuspendDispatching
		ok := suspended && c != nil && c.Reason == "SuspendDispatching" && c.ObservedGeneration == w.Generation &&
			strings.Contains(string(w.Spec.Workload.Manifests[0].Raw), `"replicas":3`)
		return ok, fmt.Sprintf("suspended %v, Applied %+v", suspended, c)
	})
	if got := memberReplicas(context.Background(), t, ns, "web")["member1"]; got != 1 {
		t.Fatalf("member1 got %d replicas while dispatching was suspended, want 1", got)
	}
	kubectl(t, policy(false), "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member1": 3})
}

// TestPreemption: a PropagationPolicy with preemption Always that names the
// template takes it from a ClusterPropagationPolicy.
func TestPreemption(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-preempt")
	kubectl(t, deploymentYAML(ns, "web", 1, "100m")+fmt.Sprintf(`---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: e2e-preempt-all}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, namespace: %s}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`, ns), "apply", "-f", "-")
	defer kubectlErr("", "delete", "cpp", "e2e-preempt-all")
	waitReplicas(t, ns, "web", map[string]int32{"member1": 1, "member2": -1})
	kubectl(t, fmt.Sprintf(`apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: %s}
spec:
  preemption: Always
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement: {clusterAffinity: {clusterNames: [member2]}}
`, ns), "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member1": -1, "member2": 1})
	kube, _ := mcoClients(t)
	d, err := kube.AppsV1().Deployments(ns).Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Annotations["propagationpolicy.karmada.io/name"] != "web" {
		t.Errorf("claim after preemption: %v", d.Annotations)
	}
}

// TestDriftIsCorrected: a propagated Deployment edited or deleted by hand
// in a member is put back.
func TestDriftIsCorrected(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-drift")
	kubectl(t, deploymentYAML(ns, "web", 2, "100m")+"---\n"+onlyOn(ns, "web", "member1", "Abort"), "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member1": 2})
	member := memberClient(t, "member1")
	ctx := context.Background()
	d, err := member.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A patch: the member's own controllers write the Deployment too.
	five := []byte(`{"spec":{"replicas":5}}`)
	if _, err := member.AppsV1().Deployments(ns).Patch(ctx, "web", types.MergePatchType, five, metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	waitReplicas(t, ns, "web", map[string]int32{"member1": 2})
	if err := member.AppsV1().Deployments(ns).Delete(ctx, "web", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, 30*time.Second, "the deleted Deployment comes back", func(ctx context.Context) (bool, string) {
		got, err := member.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		return got.UID != d.UID && *got.Spec.Replicas == 2, fmt.Sprintf("uid %s replicas %d", got.UID, *got.Spec.Replicas)
	})
}

// TestBadInput: a template no policy selects stays unbound, quietly; a
// policy selecting a kind mco does not propagate says so in an Event.
func TestBadInput(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-bad-input")
	kubectl(t, deploymentYAML(ns, "lonely", 1, "10m")+fmt.Sprintf(`---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: widgets, namespace: %s}
spec:
  resourceSelectors: [{apiVersion: example.com/v1, kind: Widget}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`, ns), "apply", "-f", "-")
	eventually(t, 30*time.Second, "the policy warns about its selector", func(context.Context) (bool, string) {
		out, _ := kubectlErr("", "-n", ns, "describe", "propagationpolicy", "widgets")
		return strings.Contains(out, "ResourceNotPropagatable") && strings.Contains(out, "example.com/v1 Widget"), out
	})
	_, mco := mcoClients(t)
	if _, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(context.Background(), "lonely-deployment", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("a template no policy selects got a binding: %v", err)
	}
	kube, _ := mcoClients(t)
	evs, err := kube.CoreV1().Events(ns).List(context.Background(), metav1.ListOptions{FieldSelector: "involvedObject.name=lonely"})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs.Items) != 0 {
		t.Errorf("events about an unbound template: %+v", evs.Items)
	}
}

// TestReservedNamespacesStayOnMCO: a ClusterPropagationPolicy selecting
// every Secret propagates a user's Secret but never mco's own: member
// credentials in karmada-cluster and anything in kube-* or karmada-es-*.
func TestReservedNamespacesStayOnMCO(t *testing.T) {
	framework.Serial(t, "its ClusterPropagationPolicy selects every Secret in every namespace")
	ns := namespace(t, "e2e-reserved")
	kubectl(t, fmt.Sprintf(`apiVersion: v1
kind: Secret
metadata: {name: app-secret, namespace: %s}
stringData: {password: x}
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: e2e-every-secret}
spec:
  resourceSelectors: [{apiVersion: v1, kind: Secret}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`, ns), "apply", "-f", "-")
	defer kubectl(t, "", "delete", "cpp", "e2e-every-secret", "--ignore-not-found")
	eventually(t, 60*time.Second, "the user's secret in member1", func(ctx context.Context) (bool, string) {
		_, err := memberClient(t, "member1").CoreV1().Secrets(ns).Get(ctx, "app-secret", metav1.GetOptions{})
		return err == nil, fmt.Sprint(err)
	})
	_, mco := mcoClients(t)
	bindings, err := mco.WorkV1alpha2().ResourceBindings("").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bindings.Items {
		if b.Namespace == "karmada-cluster" || strings.HasPrefix(b.Namespace, "kube-") || strings.HasPrefix(b.Namespace, "karmada-es-") {
			t.Errorf("binding %s/%s: templates in reserved namespaces must not be claimed", b.Namespace, b.Name)
		}
	}
	if _, err := memberClient(t, "member1").CoreV1().Secrets("karmada-cluster").Get(context.Background(), "member2-impersonator", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("member2's credentials reached member1: %v", err)
	}
}
