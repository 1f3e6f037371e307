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

// watchImages records, until stop, every distinct member image map seen.
func watchImages(t *testing.T, ns, name string) (seen func() []map[string]string, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan []map[string]string, 1)
	go func() {
		var out []map[string]string
		last := ""
		for ctx.Err() == nil {
			m := memberImages(ctx, t, ns, name)
			if s := fmt.Sprint(m); s != last && ctx.Err() == nil {
				out, last = append(out, m), s
			}
			time.Sleep(200 * time.Millisecond)
		}
		ch <- out
	}()
	var result []map[string]string
	stop = func() { cancel(); result = <-ch }
	return func() []map[string]string { return result }, stop
}

// TestStagedRollout follows one Deployment through waves member2 →
// member1 → member3: the first revision everywhere, an image change wave
// by wave after healthyFor, a pause after the first wave held until
// resume, a revision whose pods never turn Ready failing the first wave
// and undone at once while member1 and member3 never saw it, and the
// history of it all.
func TestStagedRollout(t *testing.T) {
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
	time.Sleep(3 * time.Second)
	if m := memberImages(context.Background(), t, ns, "web"); m["member1"] != "nginx:1.28" {
		t.Fatalf("a paused rollout went on: members run %v", m)
	}
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

// TestStagedRolloutRecovers: onFailure Rollback undoes a bad revision by
// itself; a second change mid-rollout supersedes the first, which the
// later waves never see; a paused rollout stays paused across a kill -9
// of mco-controller-manager and goes on when resumed.
func TestStagedRolloutRecovers(t *testing.T) {
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

	// Paused mid-rollout, kill -9, restart: still paused; resume finishes.
	kubectl(t, "", "-n", ns, "patch", "rolloutpolicy", "api", "--type=json",
		"-p", `[{"op": "replace", "path": "/spec/waves/0/healthyFor", "value": "30s"}]`)
	kubectl(t, "", "-n", ns, "set", "image", "deploy/api", "app=nginx:1.30")
	eventually(t, 60*time.Second, "member2 at nginx:1.30", func(ctx context.Context) (bool, string) {
		m := memberImages(ctx, t, ns, "api")
		return m["member2"] == "nginx:1.30", fmt.Sprint(m)
	})
	kubectlMCO(t, "rollout", "pause", "-n", ns, "deploy/api").mustSucceed(t, "pause")
	waitRollout(t, ns, "api", 5, rolloutv1alpha1.ConditionPaused, 30*time.Second)
	cm := framework.Env.MCO.ControllerManager
	if err := cm.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := cm.Restart(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(35 * time.Second) // past healthyFor: a rollout that forgot its pause would go on
	if m := memberImages(context.Background(), t, ns, "api"); m["member1"] != "nginx:1.29" || m["member3"] != "nginx:1.29" {
		t.Fatalf("a paused rollout went on after a restart: members run %v", m)
	}
	waitRollout(t, ns, "api", 5, rolloutv1alpha1.ConditionPaused, 30*time.Second)
	kubectlMCO(t, "rollout", "resume", "-n", ns, "deploy/api").mustSucceed(t, "resume")
	follow := kubectlMCO(t, "rollout", "status", "-n", ns, "deploy/api", "-w", "--timeout", "2m")
	follow.mustSucceed(t, "rollout status -w until complete")
	if !strings.Contains(follow.stdout, "State: Complete") || !strings.Contains(follow.stdout, "revision 5, stable 5") {
		t.Fatalf("rollout status -w did not follow to the end:\n%s", follow.stdout)
	}
	waitRollout(t, ns, "api", 5, rolloutv1alpha1.ConditionComplete, 10*time.Second)
}

// controllerManagerWrites counts mco-apiserver's write requests so far by
// resource (group/resource/subresource), from its metrics.
func controllerManagerWrites(t *testing.T) map[string]float64 {
	t.Helper()
	kube, _ := mcoClients(t)
	raw, err := kube.CoreV1().RESTClient().Get().AbsPath("/metrics").DoRaw(context.Background())
	if err != nil {
		t.Fatalf("mco-apiserver metrics: %v", err)
	}
	out := map[string]float64{}
	for _, line := range strings.Split(string(raw), "\n") {
		if !strings.HasPrefix(line, "apiserver_request_total{") {
			continue
		}
		labels := map[string]string{}
		body := line[strings.Index(line, "{")+1 : strings.LastIndex(line, "}")]
		for _, kv := range strings.Split(body, ",") {
			k, v, _ := strings.Cut(kv, "=")
			labels[k] = strings.Trim(v, `"`)
		}
		switch labels["verb"] {
		case "POST", "PUT", "PATCH", "DELETE", "APPLY", "UPDATE", "CREATE":
		default:
			continue
		}
		var n float64
		fmt.Sscanf(strings.TrimSpace(line[strings.LastIndex(line, "}")+1:]), "%g", &n)
		key := labels["group"] + "/" + labels["resource"]
		if labels["subresource"] != "" {
			key += "/" + labels["subresource"]
		}
		out[key] += n
	}
	return out
}

// diffWrites is after minus before, leaving out resources not written.
func diffWrites(before, after map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for k, v := range after {
		if d := v - before[k]; d > 0 {
			out[k] = d
		}
	}
	return out
}

// TestStagedRolloutOfAClusterScopedTemplate: a ClusterRolloutPolicy stages
// a ClusterRole's change, member2 first; its record lives in
// karmada-system.
func TestStagedRolloutOfAClusterScopedTemplate(t *testing.T) {
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
		revs, _ := kube.AppsV1().ControllerRevisions("karmada-system").List(ctx, metav1.ListOptions{LabelSelector: rolloutv1alpha1.RolloutLabel})
		return apierrors.IsNotFound(err) && len(revs.Items) == 0, fmt.Sprintf("rollout: %v; %d revisions", err, len(revs.Items))
	})
}
