package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/test/e2e/framework"
)

// TestNamespaceDeletionAtScale deletes a namespace that holds many
// propagated workloads and their Events. It is gone from mco and from
// every member within two minutes; the members' copies stay (not even
// terminating) until mco's is gone, so that the workloads are withdrawn
// into live namespaces, and none is created again afterwards.
func TestNamespaceDeletionAtScale(t *testing.T) {
	framework.Parallel(t)
	const count = 40
	ns := namespace(t, "e2e-ns-delete")
	var manifests strings.Builder
	manifests.WriteString(`apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: everything, namespace: ` + ns + `}
spec:
  resourceSelectors:
  - {apiVersion: apps/v1, kind: Deployment}
  - {apiVersion: v1, kind: ConfigMap}
  placement:
    clusterAffinity: {clusterNames: [member1, member2, member3]}
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
        - {targetCluster: {clusterNames: [member1]}, weight: 1}
        - {targetCluster: {clusterNames: [member2]}, weight: 1}
        - {targetCluster: {clusterNames: [member3]}, weight: 1}
`)
	for i := range count {
		name := fmt.Sprintf("app-%02d", i)
		manifests.WriteString("---\n" + deploymentYAML(ns, name, 3, "10m"))
		fmt.Fprintf(&manifests, "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s, namespace: %s}\ndata: {key: value}\n", name, ns)
	}
	kubectl(t, manifests.String(), "apply", "-f", "-")

	eventually(t, 3*time.Minute, "every Deployment and ConfigMap in every member", func(ctx context.Context) (bool, string) {
		for _, m := range members {
			c := memberClient(t, m)
			deploys, err := c.AppsV1().Deployments(ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				return false, err.Error()
			}
			cms, err := c.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				return false, err.Error()
			}
			// Each member has its kube-root-ca.crt besides.
			if len(deploys.Items) != count || len(cms.Items) < count {
				return false, fmt.Sprintf("%s has %d Deployments and %d ConfigMaps", m, len(deploys.Items), len(cms.Items))
			}
		}
		return true, ""
	})

	start := time.Now()
	kubectl(t, "", "delete", "namespace", ns, "--wait=false")
	var goneFromMCO time.Duration
	eventually(t, 2*time.Minute, "namespace "+ns+" gone from mco and every member", func(ctx context.Context) (bool, string) {
		kube, _ := mcoClients(t)
		_, err := kube.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
		onMCO := !apierrors.IsNotFound(err)
		if !onMCO && goneFromMCO == 0 {
			goneFromMCO = time.Since(start)
		}
		// mcoStill reads mco again: a member seen going after the first
		// read may have followed mco's deletion in between.
		mcoStill := func() bool {
			_, err := kube.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
			return !apierrors.IsNotFound(err)
		}
		var left []string
		for _, m := range members {
			got, err := memberClient(t, m).CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
			switch {
			case apierrors.IsNotFound(err):
				if onMCO && mcoStill() {
					t.Fatalf("%s lost namespace %s while mco still had it: its content would be applied into nothing", m, ns)
				}
			case err != nil:
				left = append(left, m+": "+err.Error())
			default:
				if onMCO && got.DeletionTimestamp != nil && mcoStill() {
					t.Fatalf("%s began terminating namespace %s while mco still had it", m, ns)
				}
				left = append(left, m)
			}
		}
		return !onMCO && len(left) == 0, fmt.Sprintf("on mco: %t; in %v", onMCO, left)
	})
	t.Logf("namespace %s with %d Deployments and %d ConfigMaps: gone from mco after %s, from every member after %s",
		ns, count, count, goneFromMCO.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))

	holds(t, 5*time.Second, "namespace "+ns+" stays gone from every member", func(ctx context.Context) (bool, string) {
		for _, m := range members {
			if _, err := memberClient(t, m).CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				return false, fmt.Sprintf("%s has it again (err %v)", m, err)
			}
		}
		return true, ""
	})
}
