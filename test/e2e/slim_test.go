package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/test/e2e/framework"
)

// TestCustomizedKindReadWhole: mco-controller-manager caches the copies it
// applies without the fields its own rules never read (a CronJob's
// jobTemplate among them); a customization that interprets such a kind
// reads the member's copy whole. The status script here reports the image
// of the jobTemplate, in this test's namespace only (elsewhere it reflects
// the whole status, as mco's rules do for a CronJob); reading a slim copy,
// it would fail on the missing jobTemplate.
func TestCustomizedKindReadWhole(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-whole")
	customization := "e2e-cronjob-health-" + ns
	kubectl(t, fmt.Sprintf(`apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: %[2]s}
spec:
  target: {apiVersion: batch/v1, kind: CronJob}
  customizations:
    statusReflection:
      luaScript: |
        function ReflectStatus(obj)
          if obj.metadata.namespace ~= "%[1]s" then
            return obj.status
          end
          return {image = obj.spec.jobTemplate.spec.template.spec.containers[1].image}
        end
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly, namespace: %[1]s}
spec:
  schedule: "0 3 * * *"
  suspend: true
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: report, image: busybox:1.36}]}}}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: nightly, namespace: %[1]s}
spec:
  resourceSelectors: [{apiVersion: batch/v1, kind: CronJob, name: nightly}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`, ns, customization), "apply", "-f", "-")
	t.Cleanup(func() {
		_, _ = kubectlErr("", "delete", "resourceinterpretercustomization", customization, "--ignore-not-found")
	})

	_, mco := mcoClients(t)
	rb := names.Binding("CronJob", "nightly")
	eventually(t, 90*time.Second, "CronJob nightly's jobTemplate image reflected from member1", func(ctx context.Context) (bool, string) {
		b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, rb, metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		for _, s := range b.Status.AggregatedStatus {
			if s.ClusterName == "member1" && s.Status != nil {
				return string(s.Status.Raw) == `{"image":"busybox:1.36"}`, fmt.Sprintf("member1's status %s", s.Status.Raw)
			}
		}
		return false, bindingSummary(ctx, mco, ns, rb)
	})
}
