package integration

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	autoscalingv1alpha1 "github.com/mco-org/mco/pkg/apis/autoscaling/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/test/integration/framework"
)

// TestAutoscalingKinds applies Karmada's autoscaling kinds with real
// kubectl: FederatedHPA and CronFederatedHPA are served under their short
// names with the columns of Karmada's CRDs; a FederatedHPA gets Karmada's
// defaults (minReplicas 1, 80 % CPU); bad input is refused naming the
// field.
func TestAutoscalingKinds(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	s.MustKubectl(t, `apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: web, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 10
---
apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata: {name: web-cron, namespace: default}
spec:
  scaleTargetRef: {apiVersion: autoscaling.karmada.io/v1alpha1, kind: FederatedHPA, name: web}
  rules:
  - {name: peak, schedule: "0 8 * * 1-5", targetMaxReplicas: 20}
`, "apply", "-f", "-")
	out := s.MustKubectl(t, "", "get", "fhpa,cronfhpa", "-n", "default")
	for _, want := range []string{"REFERENCE-KIND", "REFERENCE-NAME", "MINPODS", "MAXPODS", "REPLICAS",
		"federatedhpa.autoscaling.karmada.io/web", "cronfederatedhpa.autoscaling.karmada.io/web-cron"} {
		if !strings.Contains(out, want) {
			t.Errorf("kubectl get fhpa,cronfhpa lacks %q:\n%s", want, out)
		}
	}
	if got := s.MustKubectl(t, "", "get", "fhpa", "web", "-n", "default", "-o",
		"jsonpath={.spec.minReplicas} {.spec.metrics[0].resource.name} {.spec.metrics[0].resource.target.averageUtilization}"); got != "1 cpu 80" {
		t.Errorf("FederatedHPA defaults %q, want minReplicas 1 and 80 %% CPU", got)
	}
	if got := s.MustKubectl(t, "", "get", "cronfhpa", "web-cron", "-n", "default", "-o",
		"jsonpath={.spec.rules[0].suspend} {.spec.rules[0].successfulHistoryLimit} {.spec.rules[0].failedHistoryLimit}"); got != "false 3 3" {
		t.Errorf("CronFederatedHPA rule defaults %q, want false 3 3", got)
	}
	fhpa := func(spec string) string {
		return "apiVersion: autoscaling.karmada.io/v1alpha1\nkind: FederatedHPA\nmetadata: {name: bad, namespace: default}\nspec: " + spec + "\n"
	}
	cron := func(spec string) string {
		return "apiVersion: autoscaling.karmada.io/v1alpha1\nkind: CronFederatedHPA\nmetadata: {name: bad, namespace: default}\nspec: " + spec + "\n"
	}
	for _, bad := range []struct{ name, yaml, want string }{
		{"no maxReplicas", fhpa("{scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}}"), "spec.maxReplicas"},
		{"minReplicas above maxReplicas", fhpa("{scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}, minReplicas: 5, maxReplicas: 2}"), "spec.maxReplicas"},
		{"no target name", fhpa("{scaleTargetRef: {apiVersion: apps/v1, kind: Deployment}, maxReplicas: 2}"), "spec.scaleTargetRef.name"},
		{"bad schedule", cron(`{scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}, rules: [{name: up, schedule: "61 * * * *", targetReplicas: 3}]}`), "spec.rules[0].schedule"},
		{"bad time zone", cron(`{scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}, rules: [{name: up, schedule: "* * * * *", targetReplicas: 3, timeZone: Mars/Olympus}]}`), "spec.rules[0].timeZone"},
		{"template without targetReplicas", cron(`{scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}, rules: [{name: up, schedule: "* * * * *"}]}`), "targetReplicas cannot be nil"},
		{"duplicate rule", cron(`{scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}, rules: [{name: up, schedule: "* * * * *", targetReplicas: 1}, {name: up, schedule: "* * * * *", targetReplicas: 2}]}`), "spec.rules[1].name"},
	} {
		_, stderr, err := s.Kubectl(t, bad.yaml, "apply", "-f", "-")
		if err == nil || !strings.Contains(stderr, bad.want) {
			t.Errorf("%s: err %v, stderr %q; want a refusal mentioning %q", bad.name, err, stderr, bad.want)
		}
	}
}

// TestCronFederatedHPARuns: with mco-controller-manager running the
// CronFederatedHPA controller against a real mco-apiserver, rules due at
// the next minute set a Deployment template's replicas through its scale
// subresource and a FederatedHPA's bounds, and record each run in the
// status with Karmada's names; a rule on a template that a FederatedHPA
// scales fails with a reason and a Warning event.
func TestCronFederatedHPARuns(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	framework.StartControllerManager(t, s, "--controllers=cronFederatedHorizontalPodAutoscaler")
	client, err := mcoclient.NewForConfig(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	kube, err := kubernetes.NewForConfig(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	deployment := func(name string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ` + name + `, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: ` + name + `}}
  template:
    metadata: {labels: {app: ` + name + `}}
    spec: {containers: [{name: c, image: nginx}]}
---
`
	}
	s.MustKubectl(t, deployment("web")+deployment("api")+`apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: api, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}
  minReplicas: 2
  maxReplicas: 4
---
apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata: {name: web, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  rules: [{name: scale-up, schedule: "* * * * *", targetReplicas: 6}]
---
apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata: {name: api-bounds, namespace: default}
spec:
  scaleTargetRef: {apiVersion: autoscaling.karmada.io/v1alpha1, kind: FederatedHPA, name: api}
  rules: [{name: widen, schedule: "* * * * *", targetMinReplicas: 3, targetMaxReplicas: 8}]
---
apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata: {name: api-direct, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}
  rules: [{name: clash, schedule: "* * * * *", targetReplicas: 9}]
`, "apply", "-f", "-")
	ctx := context.Background()
	history := func(name string) (autoscalingv1alpha1.ExecutionHistory, error) {
		c, err := client.AutoscalingV1alpha1().CronFederatedHPAs("default").Get(ctx, name, metav1.GetOptions{})
		if err != nil || len(c.Status.ExecutionHistories) != 1 {
			return autoscalingv1alpha1.ExecutionHistory{}, fmt.Errorf("%v, histories %+v", err, c.Status.ExecutionHistories)
		}
		return c.Status.ExecutionHistories[0], nil
	}
	// The next slot is recorded at once, before any run.
	waitFor(t, 30*time.Second, "the next slot of scale-up recorded", func() bool {
		h, err := history("web")
		return err == nil && h.RuleName == "scale-up" && h.NextExecutionTime != nil && len(h.SuccessfulExecutions) == 0
	})
	waitFor(t, 100*time.Second, "scale-up run at the next minute", func() bool {
		h, err := history("web")
		return err == nil && len(h.SuccessfulExecutions) == 1
	})
	d, err := kube.AppsV1().Deployments("default").Get(ctx, "web", metav1.GetOptions{})
	if err != nil || *d.Spec.Replicas != 6 {
		t.Errorf("Deployment web: %v, replicas %v, want 6", err, d.Spec.Replicas)
	}
	h, _ := history("web")
	run := h.SuccessfulExecutions[0]
	if run.AppliedReplicas == nil || *run.AppliedReplicas != 6 || run.ScheduleTime.Second() != 0 ||
		run.ExecutionTime.Before(run.ScheduleTime) || !h.NextExecutionTime.After(run.ScheduleTime.Time) {
		t.Errorf("run %+v, next %v: want 6 applied at a whole minute, the next slot after it", run, h.NextExecutionTime)
	}
	t.Logf("scale-up scheduled %s, ran %s", run.ScheduleTime.UTC().Format(time.RFC3339), run.ExecutionTime.UTC().Format(time.RFC3339))

	waitFor(t, 30*time.Second, "widen and clash run", func() bool {
		a, errA := history("api-bounds")
		b, errB := history("api-direct")
		return errA == nil && errB == nil && len(a.SuccessfulExecutions) == 1 && len(b.FailedExecutions) == 1
	})
	f, err := client.AutoscalingV1alpha1().FederatedHPAs("default").Get(ctx, "api", metav1.GetOptions{})
	if err != nil || *f.Spec.MinReplicas != 3 || f.Spec.MaxReplicas != 8 {
		t.Errorf("FederatedHPA api: %v, bounds %v-%d, want 3-8", err, f.Spec.MinReplicas, f.Spec.MaxReplicas)
	}
	a, _ := history("api-bounds")
	if r := a.SuccessfulExecutions[0]; r.AppliedMinReplicas == nil || *r.AppliedMinReplicas != 3 || r.AppliedMaxReplicas == nil || *r.AppliedMaxReplicas != 8 || r.AppliedReplicas != nil {
		t.Errorf("widen run %+v, want appliedMinReplicas 3 and appliedMaxReplicas 8", r)
	}
	b, _ := history("api-direct")
	if msg := b.FailedExecutions[0].Message; !strings.Contains(msg, "is scaled by FederatedHPA api") {
		t.Errorf("clash failed with %q, want it to name FederatedHPA api", msg)
	}
	if d, err := kube.AppsV1().Deployments("default").Get(ctx, "api", metav1.GetOptions{}); err != nil || *d.Spec.Replicas != 2 {
		t.Errorf("Deployment api: %v, replicas %v; the clashing rule must leave it at 2", err, d.Spec.Replicas)
	}
	waitFor(t, 30*time.Second, "a ScaleFailed Warning on api-direct", func() bool {
		out := s.MustKubectl(t, "", "get", "events", "-n", "default", "--field-selector", "involvedObject.name=api-direct", "-o", "jsonpath={.items[*].reason}")
		return strings.Contains(out, "ScaleFailed")
	})
}
