package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	"github.com/mco-org/mco/test/e2e/framework"
)

// TestEarlyResumeIsKept: waves canary (marked pause) → pre → prod; a
// `kubectl mco rollout resume` given while canary still rolls out or
// soaks says the rollout will go on past canary without pausing, status
// says so too, and the rollout then completes without another command.
func TestEarlyResumeIsKept(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "early-resume")
	kubectl(t, stagedAppYAML(ns, "web", "nginx:1.27", ""), "apply", "-f", "-")
	kubectl(t, "", "-n", ns, "patch", "rolloutpolicy", "web", "--type=json", "-p",
		`[{"op": "add", "path": "/spec/waves/0/pause", "value": true}, {"op": "replace", "path": "/spec/waves/0/healthyFor", "value": "12s"}]`)
	waitRollout(t, ns, "web", 1, rolloutv1alpha1.ConditionComplete, 90*time.Second)

	kubectl(t, "", "-n", ns, "set", "image", "deploy/web", "app=nginx:1.28")
	eventually(t, 60*time.Second, "canary under way: member2 alone has nginx:1.28", func(ctx context.Context) (bool, string) {
		m := memberImages(ctx, t, ns, "web")
		return m["member2"] == "nginx:1.28" && m["member1"] == "nginx:1.27", fmt.Sprint(m)
	})
	r := kubectlMCO(t, "rollout", "resume", "-n", ns, "deploy/web")
	r.mustSucceed(t, "early resume")
	if want := "canary is still under way; the rollout will go on past it without pausing"; !strings.Contains(r.stdout, want) {
		t.Errorf("resume during canary printed %q, want %q", r.stdout, want)
	}
	eventually(t, 30*time.Second, "status says the rollout goes on past canary", func(context.Context) (bool, string) {
		st := kubectlMCO(t, "rollout", "status", "-n", ns, "deploy/web")
		return strings.Contains(st.stdout, "will continue past canary"), st.stdout
	})
	waitRollout(t, ns, "web", 2, rolloutv1alpha1.ConditionComplete, 2*time.Minute)
	if m := memberImages(context.Background(), t, ns, "web"); m["member1"] != "nginx:1.28" || m["member3"] != "nginx:1.28" {
		t.Errorf("complete, members run %v", m)
	}
}
