package integration

import (
	"strings"
	"testing"

	"github.com/mco-org/mco/test/integration/framework"
)

// rolloutPolicy is a RolloutPolicy in namespace default with the given
// waves (YAML, indented under waves) and extra spec lines.
func rolloutPolicy(name, waves, extra string) string {
	return "apiVersion: rollout.mco-org.github.io/v1alpha1\nkind: RolloutPolicy\nmetadata: {name: " + name + ", namespace: default}\n" +
		"spec:\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n  waves:\n" + waves + extra
}

// TestRolloutPolicies applies rollout policies with real kubectl: served
// with short names, defaults and columns; bad policies are refused naming
// the field; kubectl explain knows the kinds.
func TestRolloutPolicies(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	good := "  - {name: canary, clusterNames: [member2], healthyFor: 1m, pause: true}\n  - {name: rest, rest: true}\n"
	s.MustKubectl(t, rolloutPolicy("web", good, ""), "apply", "-f", "-")
	out := s.MustKubectl(t, "", "get", "rop", "-n", "default")
	for _, want := range []string{"WAVES", "ON-FAILURE", "canary,rest", "Pause"} {
		if !strings.Contains(out, want) {
			t.Errorf("kubectl get rop lacks %q:\n%s", want, out)
		}
	}
	if got := s.MustKubectl(t, "", "get", "rop", "web", "-n", "default", "-o", "jsonpath={.spec.healthCheck.timeout} {.spec.revisionHistoryLimit}"); got != "10m0s 10" {
		t.Errorf("defaults: %q, want a 10m0s timeout and a history of 10", got)
	}
	for _, bad := range []struct{ name, yaml, want string }{
		{"rest first", rolloutPolicy("bad1", "  - {name: a, rest: true}\n  - {name: b, clusterNames: [m1]}\n", ""), "spec.waves[0].rest"},
		{"nameless cluster list", rolloutPolicy("bad2", "  - {name: a}\n", ""), "spec.waves[0].clusterNames"},
		{"duplicate wave", rolloutPolicy("bad3", "  - {name: a, clusterNames: [m1]}\n  - {name: a, rest: true}\n", ""), "spec.waves[1].name"},
		{"unknown action", rolloutPolicy("bad4", good, "  onFailure: Explode\n"), "spec.onFailure"},
		{"bad percentage", rolloutPolicy("bad5", "  - {name: a, clusterNames: [m1], maxUnavailableClusters: 200%}\n", ""), "spec.waves[0].maxUnavailableClusters"},
	} {
		_, stderr, err := s.Kubectl(t, bad.yaml, "apply", "-f", "-")
		if err == nil || !strings.Contains(stderr, bad.want) {
			t.Errorf("%s: err %v, stderr %q; want a refusal naming %q", bad.name, err, stderr, bad.want)
		}
	}
	s.MustKubectl(t, "apiVersion: rollout.mco-org.github.io/v1alpha1\nkind: ClusterRolloutPolicy\nmetadata: {name: all}\n"+
		"spec:\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n  waves:\n"+good+"  onFailure: Rollback\n", "apply", "-f", "-")
	if out := s.MustKubectl(t, "", "get", "crop"); !strings.Contains(out, "Rollback") {
		t.Errorf("kubectl get crop:\n%s", out)
	}
	for _, kind := range []string{"rolloutpolicies.spec.waves", "clusterrolloutpolicies", "rollouts.status.clusters"} {
		if out := s.MustKubectl(t, "", "explain", kind); !strings.Contains(out, "FIELDS:") && !strings.Contains(out, "FIELD:") {
			t.Errorf("explain %s:\n%s", kind, out)
		}
	}
	if out := s.MustKubectl(t, "", "get", "mco", "-A"); !strings.Contains(out, "rolloutpolicy") {
		t.Errorf("kubectl get mco lists no rollout policy:\n%s", out)
	}
}
