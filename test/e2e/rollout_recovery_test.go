package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	"github.com/mco-org/mco/test/e2e/framework"
)

// TestStagedRolloutRecovers: onFailure Rollback undoes a bad revision by
// itself; a second change mid-rollout supersedes the first, which the
// later waves never see.
func TestStagedRolloutRecovers(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "staged-recovers")
	kubectl(t, stagedAppYAML(ns, "api", "nginx:1.27", "  onFailure: Rollback\n"), "apply", "-f", "-")
	waitRollout(t, ns, "api", 1, rolloutv1alpha1.ConditionComplete, 90*time.Second)

	seen, stop := watchImages(t, ns, "api")
	kubectl(t, "", "-n", ns, "patch", "deploy/api", "--type=merge",
		"-p", `{"spec":{"template":{"metadata":{"labels":{"mco-org.github.io/never-ready":"true"}},"spec":{"containers":[{"name":"app","image":"nginx:bad"}]}}}}`)
	eventually(t, 90*time.Second, "the bad revision rolled back by itself", func(ctx context.Context) (bool, string) {
		image := kubectl(t, "", "-n", ns, "get", "deploy/api", "-o", "jsonpath={.spec.template.spec.containers[0].image}")
		ro, err := rolloutOf(ctx, t, ns, "api")
		if err != nil {
			return false, err.Error()
		}
		return image == "nginx:1.27" && ro.Status.CurrentRevision == 1 && ro.Status.State() == rolloutv1alpha1.ConditionComplete,
			fmt.Sprintf("template image %s, rollout revision %d %s", image, ro.Status.CurrentRevision, ro.Status.State())
	})
	eventually(t, 60*time.Second, "member2 back at nginx:1.27", func(ctx context.Context) (bool, string) {
		m := memberImages(ctx, t, ns, "api")
		return m["member2"] == "nginx:1.27", fmt.Sprint(m)
	})
	stop()
	for _, m := range seen() {
		if m["member1"] == "nginx:bad" || m["member3"] == "nginx:bad" {
			t.Fatalf("the bad revision reached %v", m)
		}
	}

	// A second change while the first is in its first wave.
	seen, stop = watchImages(t, ns, "api")
	kubectl(t, "", "-n", ns, "set", "image", "deploy/api", "app=nginx:1.28")
	eventually(t, 60*time.Second, "member2 at nginx:1.28", func(ctx context.Context) (bool, string) {
		m := memberImages(ctx, t, ns, "api")
		return m["member2"] == "nginx:1.28", fmt.Sprint(m)
	})
	kubectl(t, "", "-n", ns, "set", "image", "deploy/api", "app=nginx:1.29")
	waitRollout(t, ns, "api", 4, rolloutv1alpha1.ConditionComplete, 2*time.Minute)
	stop()
	if order := firstSeen(seen(), "nginx:1.29"); strings.Join(order, ",") != "member2,member1,member3" {
		t.Fatalf("members got nginx:1.29 in the order %v; states seen %v", order, seen())
	}
	for _, m := range seen() {
		if m["member1"] == "nginx:1.28" || m["member3"] == "nginx:1.28" {
			t.Fatalf("the superseded revision reached %v", m)
		}
	}
}

// TestStagedRolloutPausedAcrossRestart: a rollout paused in its first wave
// stays paused across a kill -9 of mco-controller-manager and goes on when
// resumed.
func TestStagedRolloutPausedAcrossRestart(t *testing.T) {
	framework.Serial(t, "kills and restarts mco-controller-manager")
	ns := namespace(t, "staged-restart")
	kubectl(t, stagedAppYAML(ns, "api", "nginx:1.27", ""), "apply", "-f", "-")
	waitRollout(t, ns, "api", 1, rolloutv1alpha1.ConditionComplete, 90*time.Second)
	// The first wave soaks for 12 s: time enough to pause it, short enough
	// that the hold below outlasts it.
	kubectl(t, "", "-n", ns, "patch", "rolloutpolicy", "api", "--type=json",
		"-p", `[{"op": "replace", "path": "/spec/waves/0/healthyFor", "value": "12s"}]`)
	kubectl(t, "", "-n", ns, "set", "image", "deploy/api", "app=nginx:1.30")
	eventually(t, 60*time.Second, "member2 at nginx:1.30", func(ctx context.Context) (bool, string) {
		m := memberImages(ctx, t, ns, "api")
		return m["member2"] == "nginx:1.30", fmt.Sprint(m)
	})
	kubectlMCO(t, "rollout", "pause", "-n", ns, "deploy/api").mustSucceed(t, "pause")
	waitRollout(t, ns, "api", 2, rolloutv1alpha1.ConditionPaused, 30*time.Second)
	cm := framework.Env.MCO.ControllerManager
	if err := cm.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := cm.Restart(); err != nil {
		t.Fatal(err)
	}
	// Past healthyFor (12 s, counted from before the kill) and the killed
	// leader's lease (8 s in this suite), a rollout that forgot its pause
	// would go on.
	holds(t, 20*time.Second, "a paused rollout stays paused after a restart", func(ctx context.Context) (bool, string) {
		m := memberImages(ctx, t, ns, "api")
		return m["member1"] == "nginx:1.27" && m["member3"] == "nginx:1.27", fmt.Sprint(m)
	})
	waitRollout(t, ns, "api", 2, rolloutv1alpha1.ConditionPaused, 30*time.Second)
	kubectlMCO(t, "rollout", "resume", "-n", ns, "deploy/api").mustSucceed(t, "resume")
	follow := kubectlMCO(t, "rollout", "status", "-n", ns, "deploy/api", "-w", "--timeout", "2m")
	follow.mustSucceed(t, "rollout status -w until complete")
	if !strings.Contains(follow.stdout, "State: Complete") || !strings.Contains(follow.stdout, "revision 2, stable 2") {
		t.Fatalf("rollout status -w did not follow to the end:\n%s", follow.stdout)
	}
	waitRollout(t, ns, "api", 2, rolloutv1alpha1.ConditionComplete, 10*time.Second)
}

// TestStagedRolloutOfAClusterScopedTemplate: a ClusterRolloutPolicy stages
// a ClusterRole's change, member2 first; its record lives in
// karmada-system.
func TestStagedRolloutOfAClusterScopedTemplate(t *testing.T) {
	framework.Parallel(t)
	kubectl(t, `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: staged-reader}
rules: [{apiGroups: [""], resources: [configmaps], verbs: [get]}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: staged-reader}
spec:
  resourceSelectors: [{apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, name: staged-reader}]
  placement: {clusterAffinity: {clusterNames: [member1, member2, member3]}}
---
apiVersion: rollout.mco-org.github.io/v1alpha1
kind: ClusterRolloutPolicy
metadata: {name: staged-reader}
spec:
  resourceSelectors: [{apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, name: staged-reader}]
  waves:
  - {name: canary, clusterNames: [member2], healthyFor: 10s}
  - {name: rest, rest: true}
`, "apply", "-f", "-")
	_, mco := mcoClients(t)
	get := func(ctx context.Context) (*rolloutv1alpha1.Rollout, error) {
		return mco.RolloutV1alpha1().Rollouts("karmada-system").Get(ctx, "staged-reader-clusterrole", metav1.GetOptions{})
	}
	verbs := func(ctx context.Context) map[string]string {
		out := map[string]string{}
		for _, m := range members {
			cr, err := memberClient(t, m).RbacV1().ClusterRoles().Get(ctx, "staged-reader", metav1.GetOptions{})
			if err != nil {
				out[m] = "-"
				continue
			}
			out[m] = strings.Join(cr.Rules[0].Verbs, ",")
		}
		return out
	}
	eventually(t, 60*time.Second, "revision 1 complete", func(ctx context.Context) (bool, string) {
		ro, err := get(ctx)
		if err != nil {
			return false, err.Error()
		}
		return ro.Status.State() == rolloutv1alpha1.ConditionComplete, fmt.Sprintf("%s %v", ro.Status.State(), verbs(ctx))
	})
	kubectl(t, "", "patch", "clusterrole", "staged-reader", "--type=json", "-p", `[{"op": "add", "path": "/rules/0/verbs/-", "value": "list"}]`)
	eventually(t, 30*time.Second, "member2 first", func(ctx context.Context) (bool, string) {
		v := verbs(ctx)
		return v["member2"] == "get,list" && v["member1"] == "get" && v["member3"] == "get", fmt.Sprint(v)
	})
	eventually(t, 60*time.Second, "every member after healthyFor", func(ctx context.Context) (bool, string) {
		v := verbs(ctx)
		return v["member1"] == "get,list" && v["member3"] == "get,list", fmt.Sprint(v)
	})
	kubectl(t, "", "delete", "clusterrolloutpolicy", "staged-reader")
	eventually(t, 30*time.Second, "the record and revisions go with the policy", func(ctx context.Context) (bool, string) {
		_, err := get(ctx)
		kube, _ := mcoClients(t)
		revs, _ := kube.AppsV1().ControllerRevisions("karmada-system").List(ctx, metav1.ListOptions{LabelSelector: rolloutv1alpha1.RolloutLabel + "=staged-reader-clusterrole"})
		return apierrors.IsNotFound(err) && len(revs.Items) == 0, fmt.Sprintf("rollout: %v; %d revisions", err, len(revs.Items))
	})
}
