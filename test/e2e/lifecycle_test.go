package e2e

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/join"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/test/e2e/framework"
)

func onlyOn(ns, name, member, conflict string) string {
	return fmt.Sprintf(`apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: %[2]s, namespace: %[1]s}
spec:
  conflictResolution: %[4]s
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: %[2]s}]
  placement:
    clusterAffinity: {clusterNames: [%[3]s]}
`, ns, name, member, conflict)
}

// TestConflictResolution: a Deployment that already exists in a member is
// left alone under Abort, with the Work and the binding saying why, and
// taken over under Overwrite.
func TestConflictResolution(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-conflict")
	ctx := context.Background()
	member := memberClient(t, "member2")
	// The namespace controller may have copied the namespace there already.
	if _, err := member.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	labels := map[string]string{"app": "taken"}
	_, err := member.AppsV1().Deployments(ns).Create(ctx, &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "taken", Namespace: ns},
		Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](1), Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "busybox:1.36"}}}}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	kubectl(t, deploymentYAML(ns, "taken", 2, "100m")+"---\n"+onlyOn(ns, "taken", "member2", "Abort"), "apply", "-f", "-")

	_, mco := mcoClients(t)
	work := names.Work("Deployment", "taken", ns)
	eventually(t, 60*time.Second, "Work reports the conflict", func(ctx context.Context) (bool, string) {
		w, err := mco.WorkV1alpha1().Works(names.ExecutionSpace("member2")).Get(ctx, work, metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		c := meta.FindStatusCondition(w.Status.Conditions, workv1alpha1.WorkApplied)
		if c == nil || c.Status != metav1.ConditionFalse || c.Reason != "ConflictAbort" || !strings.Contains(c.Message, "not created by mco") {
			return false, fmt.Sprintf("Applied condition %+v", c)
		}
		b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, "taken-deployment", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		if len(b.Status.AggregatedStatus) != 1 || b.Status.AggregatedStatus[0].Applied || !strings.Contains(b.Status.AggregatedStatus[0].AppliedMessage, "Abort") {
			return false, fmt.Sprintf("binding aggregated status %+v", b.Status.AggregatedStatus)
		}
		return true, ""
	})
	d := memberDeployment(t, "member2", ns, "taken")
	if d.Spec.Template.Spec.Containers[0].Image != "busybox:1.36" || *d.Spec.Replicas != 1 {
		t.Fatalf("the pre-existing Deployment was changed under Abort: %s x%d", d.Spec.Template.Spec.Containers[0].Image, *d.Spec.Replicas)
	}

	kubectl(t, onlyOn(ns, "taken", "member2", "Overwrite"), "apply", "-f", "-")
	eventually(t, 60*time.Second, "Overwrite takes the Deployment over", func(ctx context.Context) (bool, string) {
		d, err := member.AppsV1().Deployments(ns).Get(ctx, "taken", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		img := d.Spec.Template.Spec.Containers[0].Image
		_, managed := d.Labels[workv1alpha1.WorkPermanentIDLabel]
		return img == "nginx:1.27" && *d.Spec.Replicas == 2 && managed, fmt.Sprintf("image %s x%d managed=%v", img, *d.Spec.Replicas, managed)
	})
}

// TestPausedMemberDoesNotBlockOthers: while member2's kube-apiserver is
// stopped, member1 still receives updates; member2 catches up on resume.
func TestPausedMemberDoesNotBlockOthers(t *testing.T) {
	framework.Serial(t, "pauses member2")
	ns := namespace(t, "e2e-pause")
	kubectl(t, deploymentYAML(ns, "web", 1, "100m")+`---
`+duplicatedPolicy(ns, "web", "member1, member2"), "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member1": 1, "member2": 1})

	m2 := framework.Env.Member("member2")
	if err := m2.APIServer.Pause(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = m2.APIServer.Resume() }()
	start := time.Now()
	kubectl(t, "", "-n", ns, "set", "image", "deploy/web", "app=nginx:1.28")
	eventually(t, 30*time.Second, "member1 updated while member2 is paused", func(ctx context.Context) (bool, string) {
		d, err := memberClient(t, "member1").AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		img := d.Spec.Template.Spec.Containers[0].Image
		return img == "nginx:1.28", "member1 runs " + img
	})
	t.Logf("member1 updated %s after the change, member2 paused", time.Since(start).Round(time.Millisecond))
	if err := m2.APIServer.Resume(); err != nil {
		t.Fatal(err)
	}
	eventually(t, 90*time.Second, "member2 catches up after resume", func(ctx context.Context) (bool, string) {
		d, err := memberClient(t, "member2").AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		img := d.Spec.Template.Spec.Containers[0].Image
		return img == "nginx:1.28", "member2 runs " + img
	})
}

// TestDeletingPolicyKeepsMemberObjects: the policy goes, its claim is
// released, the binding and what was propagated stay.
func TestDeletingPolicyKeepsMemberObjects(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-policy-delete")
	kubectl(t, deploymentYAML(ns, "kept", 1, "100m")+"---\n"+onlyOn(ns, "kept", "member1", "Abort"), "apply", "-f", "-")
	waitReplicas(t, ns, "kept", map[string]int32{"member1": 1})
	kubectl(t, "", "-n", ns, "delete", "propagationpolicy", "kept", "--timeout=30s")
	kube, mco := mcoClients(t)
	eventually(t, 30*time.Second, "claim released", func(ctx context.Context) (bool, string) {
		d, err := kube.AppsV1().Deployments(ns).Get(ctx, "kept", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		return len(d.Annotations["propagationpolicy.karmada.io/name"]) == 0, fmt.Sprintf("annotations %v", d.Annotations)
	})
	// Releasing ends with the binding losing the claim; once it has, the
	// controllers are done with the deletion, and everything must remain.
	eventually(t, 30*time.Second, "binding released, not deleted", func(ctx context.Context) (bool, string) {
		b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, "kept-deployment", metav1.GetOptions{})
		if err != nil {
			return false, fmt.Sprintf("binding after policy deletion: %v", err)
		}
		_, claimed := b.Labels["propagationpolicy.karmada.io/permanent-id"]
		return !claimed, fmt.Sprintf("binding labels %v", b.Labels)
	})
	if _, err := mco.WorkV1alpha1().Works(names.ExecutionSpace("member1")).Get(context.Background(), names.Work("Deployment", "kept", ns), metav1.GetOptions{}); err != nil {
		t.Errorf("work after policy deletion: %v", err)
	}
	if got := memberReplicas(context.Background(), t, ns, "kept")["member1"]; got != 1 {
		t.Errorf("member1 has %d replicas of kept after the policy went, want 1", got)
	}
}

// TestDeletingClusterRemovesItsWorks: deleting a Cluster withdraws what mco
// propagated there and removes its Works and execution space; joining it
// again (a Pull member: its agent registering it again) puts the workload
// back.
func TestDeletingClusterRemovesItsWorks(t *testing.T) {
	framework.Serial(t, "deletes the Cluster member3 and joins it again")
	ns := namespace(t, "e2e-cluster-delete")
	kubectl(t, deploymentYAML(ns, "web", 1, "100m")+"---\n"+onlyOn(ns, "web", "member3", "Abort"), "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member3": 1})

	kube, mco := mcoClients(t)
	kubectl(t, "", "delete", "cluster", "member3", "--timeout=60s")
	rejoined := false
	defer func() {
		if !rejoined {
			rejoin(t, "member3")
		}
	}()
	eventually(t, 60*time.Second, "member3's works and execution space gone", func(ctx context.Context) (bool, string) {
		works, err := mco.WorkV1alpha1().Works(names.ExecutionSpace("member3")).List(ctx, metav1.ListOptions{})
		if err != nil || len(works.Items) > 0 {
			return false, fmt.Sprintf("works: %v %v", err, works)
		}
		_, err = kube.CoreV1().Namespaces().Get(ctx, names.ExecutionSpace("member3"), metav1.GetOptions{})
		return apierrors.IsNotFound(err), fmt.Sprintf("execution space: %v", err)
	})
	// The credentials join stored, owned by the Cluster, went with it.
	eventually(t, 30*time.Second, "member3's credentials gone", func(ctx context.Context) (bool, string) {
		for _, name := range []string{"member3", join.ImpersonatorSecretName("member3")} {
			if _, err := kube.CoreV1().Secrets(join.Namespace).Get(ctx, name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				return false, fmt.Sprintf("secret %s: %v", name, err)
			}
		}
		return true, ""
	})
	waitReplicas(t, ns, "web", map[string]int32{"member3": -1})
	rejoin(t, "member3")
	rejoined = true
	waitReplicas(t, ns, "web", map[string]int32{"member3": 1})
}

// rejoin joins a member again after a test deleted its Cluster: a Pull
// member by starting its agent again, once the running one has stopped
// (an agent stops when its Cluster is deleted), which registers it anew.
func rejoin(t *testing.T, name string) {
	t.Helper()
	kube, mco := mcoClients(t)
	m := framework.Env.Member(name)
	if m.Spec.Pull {
		restartAgent(t, m)
		return
	}
	ca, err := os.ReadFile(framework.Env.PKI.CACert)
	if err != nil {
		t.Fatal(err)
	}
	_, err = join.Join(context.Background(), join.Clients{MCOKube: kube, MCO: mco, Member: memberClient(t, name)}, join.Options{
		Name: name, APIEndpoint: m.URL(), CABundle: ca, Region: m.Spec.Region, Zones: []string{m.Spec.Zone}, Labels: m.Spec.Labels,
	})
	if err != nil {
		t.Fatalf("join %s again: %v", name, err)
	}
	eventually(t, 30*time.Second, name+" ready again", func(ctx context.Context) (bool, string) {
		c, err := mco.ClusterV1alpha1().Clusters().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		return meta.IsStatusConditionTrue(c.Status.Conditions, "Ready"), "not ready"
	})
}
