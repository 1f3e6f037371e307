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

// stagedAppYAML is a Deployment with one replica in each of the three
// members (Duplicated) and a RolloutPolicy sending its changes to member2,
// then member1, then the rest, each wave healthy for 5s; policyExtra adds
// lines to the policy's spec (indented two spaces).
func stagedAppYAML(ns, name, image, policyExtra string) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: %[2]s, namespace: %[1]s, labels: {app: %[2]s}}
spec:
  replicas: 1
  selector: {matchLabels: {app: %[2]s}}
  template:
    metadata: {labels: {app: %[2]s}}
    spec:
      containers: [{name: app, image: %[3]q}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: %[2]s, namespace: %[1]s}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: %[2]s}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2, member3]}
    replicaScheduling: {replicaSchedulingType: Duplicated}
---
apiVersion: rollout.mco-org.github.io/v1alpha1
kind: RolloutPolicy
metadata: {name: %[2]s, namespace: %[1]s}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: %[2]s}]
  waves:
  - {name: canary, clusterNames: [member2], healthyFor: 5s}
  - {name: pre, clusterNames: [member1], healthyFor: 5s}
  - {name: prod, rest: true}
  healthCheck: {timeout: 25s}
%[4]s`, ns, name, image, policyExtra)
}

// memberImages is the image of a Deployment's first container in each
// member ("-" when absent).
func memberImages(ctx context.Context, t *testing.T, ns, name string) map[string]string {
	out := map[string]string{}
	for _, m := range members {
		d, err := memberClient(t, m).AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			out[m] = "-"
		case err != nil:
			out[m] = "error: " + err.Error()
		default:
			out[m] = d.Spec.Template.Spec.Containers[0].Image
		}
	}
	return out
}

// rolloutOf reads the Rollout of a Deployment.
func rolloutOf(ctx context.Context, t *testing.T, ns, name string) (*rolloutv1alpha1.Rollout, error) {
	_, mco := mcoClients(t)
	return mco.RolloutV1alpha1().Rollouts(ns).Get(ctx, name+"-deployment", metav1.GetOptions{})
}

// waitRollout waits until the Deployment's rollout is in state at revision.
func waitRollout(t *testing.T, ns, name string, revision int64, state string, timeout time.Duration) *rolloutv1alpha1.Rollout {
	t.Helper()
	var last *rolloutv1alpha1.Rollout
	eventually(t, timeout, fmt.Sprintf("rollout of %s at revision %d %s", name, revision, state), func(ctx context.Context) (bool, string) {
		ro, err := rolloutOf(ctx, t, ns, name)
		if err != nil {
			return false, err.Error()
		}
		last = ro
		return ro.Status.CurrentRevision == revision && ro.Status.State() == state,
			fmt.Sprintf("revision %d %s: %+v; images %v", ro.Status.CurrentRevision, ro.Status.State(), ro.Status.Clusters, memberImages(ctx, t, ns, name))
	})
	return last
}

// watchImages records, until stop, every distinct member image map seen,
// polling every 200ms and once more at stop.
func watchImages(t *testing.T, ns, name string) (seen func() []map[string]string, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan []map[string]string, 1)
	go func() {
		var out []map[string]string
		last := ""
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		record := func(m map[string]string) {
			if s := fmt.Sprint(m); s != last {
				out, last = append(out, m), s
			}
		}
		for {
			if m := memberImages(ctx, t, ns, name); ctx.Err() == nil {
				record(m)
			}
			select {
			case <-ctx.Done():
				// The state at stop too: what the caller waited for may
				// have happened since the last tick.
				final, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				record(memberImages(final, t, ns, name))
				cancel()
				ch <- out
				return
			case <-tick.C:
			}
		}
	}()
	var result []map[string]string
	stop = func() { cancel(); result = <-ch }
	return func() []map[string]string { return result }, stop
}

// holds fails the test unless cond stays true for the whole of d, checked
// every 500ms: that something does not happen.
func holds(t *testing.T, d time.Duration, what string, cond func(ctx context.Context) (bool, string)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		if ok, msg := cond(context.Background()); !ok {
			t.Fatalf("%s: no longer so: %s", what, msg)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// TestStagedRollout follows one Deployment through waves member2 →
// member1 → member3: the first revision everywhere, an image change wave
// by wave after healthyFor, a pause after the first wave held until
// resume, a revision whose pods never turn Ready failing the first wave
// and undone at once while member1 and member3 never saw it, and the
// history of it all.
func TestStagedRollout(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "staged")
	kubectl(t, stagedAppYAML(ns, "web", "nginx:1.27", ""), "apply", "-f", "-")
	waitRollout(t, ns, "web", 1, rolloutv1alpha1.ConditionComplete, 90*time.Second)
	eventually(t, 60*time.Second, "revision 1 in every member", func(ctx context.Context) (bool, string) {
		m := memberImages(ctx, t, ns, "web")
		return m["member1"] == "nginx:1.27" && m["member2"] == "nginx:1.27" && m["member3"] == "nginx:1.27", fmt.Sprint(m)
	})

	// An image change goes wave by wave.
	seen, stop := watchImages(t, ns, "web")
	writesBefore := controllerManagerWrites(t)
	start := time.Now()
	kubectl(t, "", "-n", ns, "set", "image", "deploy/web", "app=nginx:1.28")
	kubectl(t, "", "-n", ns, "annotate", "deploy/web", "kubernetes.io/change-cause=nginx 1.28")
	ro := waitRollout(t, ns, "web", 2, rolloutv1alpha1.ConditionComplete, 2*time.Minute)
	elapsed := time.Since(start)
	stop()
	order := firstSeen(seen(), "nginx:1.28")
	if strings.Join(order, ",") != "member2,member1,member3" {
		t.Fatalf("members got nginx:1.28 in the order %v, want member2, member1, member3; states seen %v", order, seen())
	}
	t.Logf("image change to last wave healthy: %s", elapsed.Round(100*time.Millisecond))
	t.Logf("mco-controller-manager's writes during the rollout, by resource: %v", diffWrites(writesBefore, controllerManagerWrites(t)))
	rec := records(ro, 2)
	if a, h := rec["member1"].AppliedTime, rec["member2"].HealthyTime; a == nil || h == nil || a.Sub(h.Time) < 5*time.Second {
		t.Fatalf("member1 got revision 2 at %v, member2 became healthy at %v: want healthyFor (5s) between", a, h)
	}
	status := kubectlMCO(t, "rollout", "status", "-n", ns, "deploy/web")
	status.mustSucceed(t, "rollout status of a complete rollout")
	for _, want := range []string{"revision 2, stable 2", "State: Complete", "canary", "member2"} {
		if !strings.Contains(status.stdout, want) {
			t.Errorf("rollout status lacks %q:\n%s", want, status.stdout)
		}
	}

	// A pause after the first wave holds the rest until resumed.
	kubectl(t, "", "-n", ns, "patch", "rolloutpolicy", "web", "--type=json",
		"-p", `[{"op": "add", "path": "/spec/waves/0/pause", "value": true}]`)
	kubectl(t, "", "-n", ns, "set", "image", "deploy/web", "app=nginx:1.29")
	waitRollout(t, ns, "web", 3, rolloutv1alpha1.ConditionPaused, 90*time.Second)
	if m := memberImages(context.Background(), t, ns, "web"); m["member2"] != "nginx:1.29" || m["member1"] != "nginx:1.28" || m["member3"] != "nginx:1.28" {
		t.Fatalf("paused after the first wave, members run %v", m)
	}
	holds(t, 3*time.Second, "member1 and member3 keep nginx:1.28 while paused", func(ctx context.Context) (bool, string) {
		m := memberImages(ctx, t, ns, "web")
		return m["member1"] == "nginx:1.28" && m["member3"] == "nginx:1.28", fmt.Sprint(m)
	})
	// kubectl rollout status on mco neither reports success nor waits in
	// silence while the waves wait.
	eventually(t, 30*time.Second, "kubectl rollout status shows the paused staged rollout", func(ctx context.Context) (bool, string) {
		out, err := kubectlErr("", "-n", ns, "rollout", "status", "deploy/web", "--watch=false")
		cond := kubectl(t, "", "-n", ns, "get", "deploy/web", "-o", `jsonpath={.status.conditions[?(@.type=="Progressing")]}`)
		return err == nil && strings.Contains(out, "Waiting for deployment") && strings.Contains(cond, "StagedRolloutPaused"),
			fmt.Sprintf("%s (%v); Progressing %s", out, err, cond)
	})
	kubectlMCO(t, "rollout", "resume", "-n", ns, "deploy/web").mustSucceed(t, "resume")
	waitRollout(t, ns, "web", 3, rolloutv1alpha1.ConditionComplete, 2*time.Minute)
	kubectl(t, "", "-n", ns, "patch", "rolloutpolicy", "web", "--type=json",
		"-p", `[{"op": "remove", "path": "/spec/waves/0/pause"}]`)

	// A revision whose pods never turn Ready fails the first wave; undo
	// returns member2 at once, and the others never saw it.
	seen, stop = watchImages(t, ns, "web")
	kubectl(t, "", "-n", ns, "patch", "deploy/web", "--type=merge",
		"-p", `{"spec":{"template":{"metadata":{"labels":{"mco-org.github.io/never-ready":"true"}},"spec":{"containers":[{"name":"app","image":"nginx:bad"}]}}}}`)
	ro = waitRollout(t, ns, "web", 4, rolloutv1alpha1.ConditionFailed, 90*time.Second)
	failed := kubectlMCO(t, "rollout", "status", "-n", ns, "deploy/web")
	if failed.code == 0 || !strings.Contains(failed.stdout, "member2") {
		t.Fatalf("rollout status of a failed rollout: exit %d\n%s%s", failed.code, failed.stdout, failed.stderr)
	}
	eventually(t, 30*time.Second, "kubectl rollout status fails on the failed staged rollout", func(ctx context.Context) (bool, string) {
		out, err := kubectlErr("", "-n", ns, "rollout", "status", "deploy/web", "--watch=false")
		return err != nil && strings.Contains(out, "exceeded its progress deadline"), fmt.Sprintf("%s (%v)", out, err)
	})
	undoStart := time.Now()
	kubectlMCO(t, "rollout", "undo", "-n", ns, "deploy/web").mustSucceed(t, "undo")
	eventually(t, 60*time.Second, "member2 back at nginx:1.29", func(ctx context.Context) (bool, string) {
		m := memberImages(ctx, t, ns, "web")
		return m["member2"] == "nginx:1.29", fmt.Sprint(m)
	})
	t.Logf("undo to member2 running the previous image: %s", time.Since(undoStart).Round(100*time.Millisecond))
	waitRollout(t, ns, "web", 3, rolloutv1alpha1.ConditionComplete, 90*time.Second)
	kubectl(t, "", "-n", ns, "rollout", "status", "deploy/web", "--timeout=60s")
	stop()
	for _, m := range seen() {
		if m["member1"] == "nginx:bad" || m["member3"] == "nginx:bad" {
			t.Fatalf("the bad revision reached %v", m)
		}
	}

	eventually(t, 30*time.Second, "the policy counts its complete rollout", func(ctx context.Context) (bool, string) {
		got := kubectl(t, "", "-n", ns, "get", "rolloutpolicy", "web", "-o", "jsonpath={.status.rollouts}/{.status.complete}")
		return got == "1/1", got
	})

	// The history: every revision, with per-cluster times and results.
	hist := kubectlMCO(t, "rollout", "history", "-n", ns, "deploy/web")
	hist.mustSucceed(t, "history")
	for _, want := range []string{"1 ", "2 ", "3 (current)", "4 ", "nginx 1.28", "member2:Failed"} {
		if !strings.Contains(hist.stdout, want) {
			t.Errorf("history lacks %q:\n%s", want, hist.stdout)
		}
	}
	one := kubectlMCO(t, "rollout", "history", "-n", ns, "deploy/web", "--revision", "2")
	one.mustSucceed(t, "history --revision 2")
	for _, want := range []string{"Revision 2 of Deployment " + ns + "/web", "member1", "nginx:1.28", "Healthy"} {
		if !strings.Contains(one.stdout, want) {
			t.Errorf("history --revision 2 lacks %q:\n%s", want, one.stdout)
		}
	}
}

// firstSeen lists the members in the order they were first seen running
// image.
func firstSeen(states []map[string]string, image string) []string {
	var order []string
	got := map[string]bool{}
	for _, s := range states {
		for _, m := range members {
			if s[m] == image && !got[m] {
				got[m] = true
				order = append(order, m)
			}
		}
	}
	return order
}

// records are the clusters' records of one revision.
func records(ro *rolloutv1alpha1.Rollout, revision int64) map[string]rolloutv1alpha1.ClusterRecord {
	out := map[string]rolloutv1alpha1.ClusterRecord{}
	for _, h := range ro.Status.History {
		if h.Revision == revision {
			for _, c := range h.Clusters {
				out[c.Name] = c
			}
		}
	}
	return out
}
