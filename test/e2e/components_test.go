package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mco-org/mco/test/e2e/framework"
)

// TestComponentsScheduling: a custom kind of two pod templates (a manager
// and its workers, read by a componentResource customization) goes whole
// to one cluster that can hold every component: never member2 (one node
// of 4 CPUs) for a set of 10 CPUs, and nowhere when a worker is larger
// than every node.
func TestComponentsScheduling(t *testing.T) {
	framework.Parallel(t)
	installTestKind(t, "components.e2e.example.com", "Pipeline", "pipelines", "{workers: {type: integer}, workerCPU: {type: string}}", members)
	kubectl(t, `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: pipelines}
spec:
  target: {apiVersion: components.e2e.example.com/v1, kind: Pipeline}
  customizations:
    componentResource:
      luaScript: |
        function GetComponents(obj)
          return {
            {name = "manager", replicas = 1, replicaRequirements = {resourceRequest = {cpu = "1"}}},
            {name = "worker", replicas = obj.spec.workers, replicaRequirements = {resourceRequest = {cpu = obj.spec.workerCPU}}},
          }
        end
`, "apply", "-f", "-")
	t.Cleanup(func() {
		_, _ = kubectlErr("", "delete", "resourceinterpretercustomization/pipelines", "--ignore-not-found")
	})

	ns := namespace(t, "e2e-components")
	kubectl(t, `apiVersion: components.e2e.example.com/v1
kind: Pipeline
metadata: {name: etl, namespace: `+ns+`}
spec: {workers: 3, workerCPU: "3"}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: etl, namespace: `+ns+`}
spec:
  resourceSelectors: [{apiVersion: components.e2e.example.com/v1, kind: Pipeline}]
  placement:
    spreadConstraints: [{spreadByField: cluster, minGroups: 1, maxGroups: 1}]
`, "apply", "-f", "-")
	scheduled := func(ctx context.Context, name string) (clusters []string, components int, conds string) {
		b, err := framework.MCO(t).WorkV1alpha2().ResourceBindings(ns).Get(ctx, name+"-pipeline", metav1.GetOptions{})
		if err != nil {
			return nil, 0, err.Error()
		}
		for _, c := range b.Spec.Clusters {
			clusters = append(clusters, c.Name)
		}
		for _, c := range b.Status.Conditions {
			conds += fmt.Sprintf("%s=%s (%s: %s) ", c.Type, c.Status, c.Reason, c.Message)
		}
		return clusters, len(b.Spec.Components), conds
	}
	eventually(t, 2*time.Minute, "the pipeline (10 CPUs a set) on member1 or member3", func(ctx context.Context) (bool, string) {
		clusters, components, conds := scheduled(ctx, "etl")
		ok := components == 2 && len(clusters) == 1 && clusters[0] != "member2"
		return ok, fmt.Sprintf("clusters %v, %d components, %s", clusters, components, conds)
	})
	etl, _, _ := scheduled(context.Background(), "etl")
	waitInMembers(t, etl, []memberObject{{schema.GroupVersionResource{Group: "components.e2e.example.com", Version: "v1", Resource: "pipelines"}, ns, "etl"}}, true)

	kubectl(t, `apiVersion: components.e2e.example.com/v1
kind: Pipeline
metadata: {name: huge, namespace: `+ns+`}
spec: {workers: 1, workerCPU: "10"}
`, "apply", "-f", "-")
	eventually(t, 2*time.Minute, "a worker of 10 CPUs fits no node: unschedulable", func(ctx context.Context) (bool, string) {
		clusters, _, conds := scheduled(ctx, "huge")
		ok := len(clusters) == 0 && strings.Contains(conds, "Scheduled=False (NoClusterFit") &&
			strings.Contains(conds, "cannot hold one set of the workload's 2 components")
		return ok, fmt.Sprintf("clusters %v, %s", clusters, conds)
	})
}
