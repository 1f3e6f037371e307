package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/test/e2e/framework"
)

// TestWorkloadAffinity: Deployments whose template label puts them in one
// affinity group land on the cluster the first of them runs on; those of
// one anti-affinity group land on different clusters.
func TestWorkloadAffinity(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-workload-affinity")
	deploy := func(name, label string) string {
		return strings.Replace(deploymentYAML(ns, name, 1, "10m"), "labels: {app: "+name+"}}", "labels: {app: "+name+", "+label+"}}", 1)
	}
	kubectl(t, `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: grouped, namespace: `+ns+`}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2, member3]}
    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Aggregated}
    workloadAffinity:
      affinity: {groupByLabelKey: together}
      antiAffinity: {groupByLabelKey: apart}
`, "apply", "-f", "-")
	placed := func(name string) string {
		var clusters []string
		eventually(t, time.Minute, name+" scheduled", func(ctx context.Context) (bool, string) {
			b, err := framework.MCO(t).WorkV1alpha2().ResourceBindings(ns).Get(ctx, name+"-deployment", metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			clusters = clusters[:0]
			for _, c := range b.Spec.Clusters {
				clusters = append(clusters, c.Name)
			}
			return len(clusters) == 1, fmt.Sprint(clusters)
		})
		return clusters[0]
	}
	kubectl(t, deploy("first", "together: shop")+"---\n"+deploy("one", "apart: db"), "apply", "-f", "-")
	first, one := placed("first"), placed("one")
	kubectl(t, deploy("second", "together: shop")+"---\n"+deploy("two", "apart: db"), "apply", "-f", "-")
	if second := placed("second"); second != first {
		t.Errorf("second of the affinity group on %s, first on %s", second, first)
	}
	if two := placed("two"); two == one {
		t.Errorf("both of the anti-affinity group on %s", one)
	}
}
