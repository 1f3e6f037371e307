package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/pkg/controllers/execution"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/test/e2e/framework"
)

// TestREADMEExample runs the README's first screen: the shipped example
// (a Deployment, a PropagationPolicy choosing the production clusters by
// label with dynamic weights, an OverridePolicy for cn-south's registry)
// reaches member1 and member3, not member2 (staging), and rolls out.
func TestREADMEExample(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-readme")
	out := kubectl(t, "", "-n", ns, "apply", "-f", "../../artifacts/examples/")
	for _, want := range []string{"deployment.apps/nginx", "propagationpolicy.policy.karmada.io/nginx-propagation", "overridepolicy.policy.karmada.io/nginx-override"} {
		if !strings.Contains(out, want) {
			t.Fatalf("kubectl apply -f artifacts/examples/ printed %q, missing %s", out, want)
		}
	}
	kubectl(t, "", "-n", ns, "rollout", "status", "deploy/nginx", "--timeout=120s")
	got := memberReplicas(context.Background(), t, ns, "nginx")
	if got["member1"] < 1 || got["member3"] < 1 || got["member2"] != -1 || got["member1"]+got["member3"] != 2 {
		t.Errorf("members run %v of nginx, want its 2 replicas over member1 and member3 and none in member2; binding and clusters:\n%s\n%s", got,
			kubectl(t, "", "-n", ns, "get", "rb", "nginx-deployment", "-o", "jsonpath={.spec.clusters}"),
			kubectl(t, "", "get", "clusters", "-o", "jsonpath={range .items[*]}{.metadata.name} {.status.resourceSummary}{\"\\n\"}{end}"))
	}
	if out := kubectl(t, "", "get", "rb,works", "-A"); !strings.Contains(out, "nginx-deployment") {
		t.Errorf("kubectl get rb,works -A does not show the binding:\n%s", out)
	}
	images := map[string]string{"member1": "nginx:1.27", "member3": "mirror.cn-south.example.com/nginx:1.27"}
	for member, want := range images {
		d := memberDeployment(t, member, ns, "nginx")
		if image := d.Spec.Template.Spec.Containers[0].Image; image != want {
			t.Errorf("%s runs image %s, want %s", member, image, want)
		}
		if !appliedBy(d, execution.FieldManager) {
			t.Errorf("%s: no server-side apply by field manager %q in %v", member, execution.FieldManager, d.ManagedFields)
		}
	}
}

// appliedBy tells whether manager owns fields of d through server-side
// apply.
func appliedBy(d *appsv1.Deployment, manager string) bool {
	for _, f := range d.ManagedFields {
		if f.Manager == manager && f.Operation == metav1.ManagedFieldsOperationApply {
			return true
		}
	}
	return false
}

// TestPreserveResourcesOnDeletion: with preserveResourcesOnDeletion, the
// template's deletion on mco removes its binding and Work but leaves the
// member's Deployment running, without mco's marks.
func TestPreserveResourcesOnDeletion(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-preserve")
	policy := strings.Replace(onlyOn(ns, "kept", "member1", "Abort"), "spec:\n", "spec:\n  preserveResourcesOnDeletion: true\n", 1)
	kubectl(t, deploymentYAML(ns, "kept", 1, "100m")+"---\n"+policy, "apply", "-f", "-")
	waitReplicas(t, ns, "kept", map[string]int32{"member1": 1})

	kubectl(t, "", "-n", ns, "delete", "deploy", "kept", "--timeout=30s")
	_, mco := mcoClients(t)
	eventually(t, 30*time.Second, "the Work withdrawn", func(ctx context.Context) (bool, string) {
		_, err := mco.WorkV1alpha1().Works(names.ExecutionSpace("member1")).Get(ctx, names.Work("Deployment", "kept", ns), metav1.GetOptions{})
		return apierrors.IsNotFound(err), fmt.Sprintf("work: %v", err)
	})
	eventually(t, 10*time.Second, "member1's Deployment kept without mco's marks", func(ctx context.Context) (bool, string) {
		d, err := memberClient(t, "member1").AppsV1().Deployments(ns).Get(ctx, "kept", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		for k := range d.Labels {
			if strings.Contains(k, "karmada.io/") {
				return false, fmt.Sprintf("label %s left: %v", k, d.Labels)
			}
		}
		for k := range d.Annotations {
			if strings.Contains(k, "karmada.io/") {
				return false, fmt.Sprintf("annotation %s left: %v", k, d.Annotations)
			}
		}
		return d.Labels["app"] == "kept", fmt.Sprintf("labels %v", d.Labels)
	})
}

// TestPolicyDeletedWhileControllerManagerDown: the finalizer mco-apiserver
// stamps on a policy holds it while no controller-manager runs; the next
// one releases the policy's claims, then lets it go.
func TestPolicyDeletedWhileControllerManagerDown(t *testing.T) {
	framework.Serial(t, "stops mco-controller-manager")
	ns := namespace(t, "e2e-policy-offline")
	kubectl(t, deploymentYAML(ns, "web", 1, "100m")+"---\n"+onlyOn(ns, "web", "member2", "Abort"), "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member2": 1})

	cm := framework.Env.MCO.ControllerManager
	if err := cm.Kill(); err != nil {
		t.Fatal(err)
	}
	restarted := false
	defer func() {
		if !restarted {
			if err := cm.Restart(); err != nil {
				t.Errorf("restart mco-controller-manager: %v", err)
			}
		}
	}()
	kubectl(t, "", "-n", ns, "delete", "propagationpolicy", "web", "--wait=false")
	kube, mco := mcoClients(t)
	ctx := context.Background()
	p, err := mco.PolicyV1alpha1().PropagationPolicies(ns).Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("the policy went while no controller could release its claims: %v", err)
	}
	if p.DeletionTimestamp == nil || len(p.Finalizers) == 0 {
		t.Fatalf("the deleted policy is not held by a finalizer: deletionTimestamp %v, finalizers %v", p.DeletionTimestamp, p.Finalizers)
	}

	if err := cm.Restart(); err != nil {
		t.Fatal(err)
	}
	restarted = true
	eventually(t, 90*time.Second, "claim released and policy gone", func(ctx context.Context) (bool, string) {
		d, err := kube.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		if name := d.Annotations["propagationpolicy.karmada.io/name"]; name != "" {
			return false, "the template is still claimed by " + name
		}
		_, err = mco.PolicyV1alpha1().PropagationPolicies(ns).Get(ctx, "web", metav1.GetOptions{})
		return apierrors.IsNotFound(err), fmt.Sprintf("policy: %v", err)
	})
	if got := memberReplicas(ctx, t, ns, "web")["member2"]; got != 1 {
		t.Errorf("member2 has %d replicas of web after the policy went, want 1 (left in place)", got)
	}
}
