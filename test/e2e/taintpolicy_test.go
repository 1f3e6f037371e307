package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/pkg/controllers/taintpolicy"
	"github.com/mco-org/mco/test/e2e/framework"
)

const (
	maintenanceCondition = "E2EMaintenance"
	maintenanceTaint     = "e2e.mco-org.github.io/maintenance"
)

// maintenancePolicy taints member1 NoSchedule while its E2EMaintenance
// condition is True, and untaints it when the condition turns False.
const maintenancePolicy = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterTaintPolicy
metadata:
  name: e2e-maintenance
spec:
  targetClusters:
    clusterNames: [member1]
  addOnConditions:
  - {conditionType: E2EMaintenance, operator: In, statusValues: ["True"]}
  removeOnConditions:
  - {conditionType: E2EMaintenance, operator: In, statusValues: ["False"]}
  taints:
  - {key: e2e.mco-org.github.io/maintenance, value: planned, effect: NoSchedule}
`

// witnessPolicy targets member2 with another taint on the same
// condition: once member2 carries it, the controller has evaluated member2
// with every policy, so the maintenance taint's absence there means
// something.
const witnessPolicy = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterTaintPolicy
metadata:
  name: e2e-maintenance-witness
spec:
  targetClusters:
    clusterNames: [member2]
  addOnConditions:
  - {conditionType: E2EMaintenance, operator: In, statusValues: ["True"]}
  removeOnConditions:
  - {conditionType: E2EMaintenance, operator: In, statusValues: ["False"]}
  taints:
  - {key: e2e.mco-org.github.io/witness, effect: NoSchedule}
`

// conditionIndex returns the index of a condition type in a Cluster's
// status (-1 when absent) and the number of conditions.
func conditionIndex(ctx context.Context, t *testing.T, cluster, conditionType string) (int, int, error) {
	_, mco := mcoClients(t)
	c, err := mco.ClusterV1alpha1().Clusters().Get(ctx, cluster, metav1.GetOptions{})
	if err != nil {
		return -1, 0, err
	}
	for i, cond := range c.Status.Conditions {
		if cond.Type == conditionType {
			return i, len(c.Status.Conditions), nil
		}
	}
	return -1, len(c.Status.Conditions), nil
}

// setClusterCondition sets one status condition of a Cluster through mco
// with kubectl patch --subresource=status, as a third-party health checker
// would. A JSON patch with a test of the type guards against the list
// moving under it; on a failed test it tries again.
func setClusterCondition(t *testing.T, cluster, conditionType string, status metav1.ConditionStatus) {
	t.Helper()
	eventually(t, 30*time.Second, fmt.Sprintf("%s condition %s=%s", cluster, conditionType, status), func(ctx context.Context) (bool, string) {
		i, n, err := conditionIndex(ctx, t, cluster, conditionType)
		if err != nil {
			return false, err.Error()
		}
		cond := metav1.Condition{Type: conditionType, Status: status, Reason: "E2E", Message: "set by the e2e test",
			LastTransitionTime: metav1.Now()}
		var ops []map[string]any
		switch {
		case n == 0:
			ops = []map[string]any{{"op": "add", "path": "/status/conditions", "value": []metav1.Condition{cond}}}
		case i < 0:
			ops = []map[string]any{{"op": "add", "path": "/status/conditions/-", "value": cond}}
		default:
			at := fmt.Sprintf("/status/conditions/%d", i)
			ops = []map[string]any{
				{"op": "test", "path": at + "/type", "value": conditionType},
				{"op": "replace", "path": at + "/status", "value": status},
				{"op": "replace", "path": at + "/lastTransitionTime", "value": metav1.Now()},
			}
		}
		patch, _ := json.Marshal(ops)
		out, err := kubectlErr("", "patch", "cluster", cluster, "--subresource=status", "--type=json", "-p", string(patch))
		return err == nil, out
	})
}

// removeClusterCondition drops a condition from a Cluster's status.
func removeClusterCondition(t *testing.T, cluster, conditionType string) {
	t.Helper()
	eventually(t, 30*time.Second, fmt.Sprintf("%s without condition %s", cluster, conditionType), func(ctx context.Context) (bool, string) {
		i, _, err := conditionIndex(ctx, t, cluster, conditionType)
		if err != nil || i < 0 {
			return err == nil, fmt.Sprint(err)
		}
		at := fmt.Sprintf("/status/conditions/%d", i)
		patch, _ := json.Marshal([]map[string]any{{"op": "test", "path": at + "/type", "value": conditionType}, {"op": "remove", "path": at}})
		out, err := kubectlErr("", "patch", "cluster", cluster, "--subresource=status", "--type=json", "-p", string(patch))
		return err == nil, out
	})
}

// clusterTaint returns the Cluster's taint of that key, or nil.
func clusterTaint(ctx context.Context, t *testing.T, cluster, key string) (*corev1.Taint, error) {
	_, mco := mcoClients(t)
	c, err := mco.ClusterV1alpha1().Clusters().Get(ctx, cluster, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	for i := range c.Spec.Taints {
		if c.Spec.Taints[i].Key == key {
			return &c.Spec.Taints[i], nil
		}
	}
	return nil, nil
}

// TestDefaultFailoverTaintPolicyExists: mco-controller-manager created
// mco-default-failover as documented and recorded that it did.
func TestDefaultFailoverTaintPolicyExists(t *testing.T) {
	framework.Parallel(t)
	kube, mco := mcoClients(t)
	eventually(t, 30*time.Second, "mco-default-failover created", func(ctx context.Context) (bool, string) {
		p, err := mco.PolicyV1alpha1().ClusterTaintPolicies().Get(ctx, taintpolicy.DefaultPolicyName, metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		if diff := cmp.Diff(taintpolicy.DefaultPolicy().Spec, p.Spec); diff != "" {
			return false, "spec (-want +got):\n" + diff
		}
		return true, ""
	})
	out := kubectl(t, "", "get", "clustertaintpolicy", taintpolicy.DefaultPolicyName)
	t.Logf("kubectl get clustertaintpolicy:\n%s", out)
	if _, err := kube.CoreV1().ConfigMaps(taintpolicy.RecordNamespace).Get(context.Background(), taintpolicy.RecordName, metav1.GetOptions{}); err != nil {
		t.Errorf("creation record: %v", err)
	}
}

// TestClusterTaintPolicyFollowsConditions: a ClusterTaintPolicy targeting
// member1 taints it when a third party reports the E2EMaintenance condition
// True on its status, and untaints it when the condition turns False;
// member2, not targeted, stays untainted with the same condition.
func TestClusterTaintPolicyFollowsConditions(t *testing.T) {
	framework.Serial(t, "taints member1 and member2 NoSchedule")
	_, mco := mcoClients(t)
	t.Cleanup(func() {
		// Deleting a policy leaves its taints: when the test stopped
		// half-way, the conditions turn False first and the taints go
		// before the policies do.
		if t.Failed() {
			for _, m := range []string{"member1", "member2"} {
				setClusterCondition(t, m, maintenanceCondition, metav1.ConditionFalse)
			}
			eventually(t, 30*time.Second, "the e2e taints gone", func(ctx context.Context) (bool, string) {
				for _, c := range []struct{ cluster, key string }{{"member1", maintenanceTaint}, {"member2", "e2e.mco-org.github.io/witness"}} {
					if taint, err := clusterTaint(ctx, t, c.cluster, c.key); err != nil || taint != nil {
						return false, fmt.Sprintf("%s: %v %v", c.cluster, taint, err)
					}
				}
				return true, ""
			})
		}
		for _, name := range []string{"e2e-maintenance", "e2e-maintenance-witness"} {
			err := mco.PolicyV1alpha1().ClusterTaintPolicies().Delete(context.Background(), name, metav1.DeleteOptions{})
			if err != nil && !apierrors.IsNotFound(err) {
				t.Error(err)
			}
		}
		for _, m := range []string{"member1", "member2"} {
			removeClusterCondition(t, m, maintenanceCondition)
		}
	})
	kubectl(t, maintenancePolicy+"---\n"+witnessPolicy, "apply", "-f", "-")

	setClusterCondition(t, "member2", maintenanceCondition, metav1.ConditionTrue)
	setClusterCondition(t, "member1", maintenanceCondition, metav1.ConditionTrue)
	started := time.Now()
	eventually(t, 30*time.Second, "member1 tainted for maintenance", func(ctx context.Context) (bool, string) {
		taint, err := clusterTaint(ctx, t, "member1", maintenanceTaint)
		if err != nil || taint == nil {
			return false, fmt.Sprint("no taint ", err)
		}
		return taint.Value == "planned" && taint.Effect == corev1.TaintEffectNoSchedule && taint.TimeAdded != nil, taint.ToString()
	})
	t.Logf("member1 tainted %s after its condition turned True", time.Since(started).Round(time.Millisecond))
	eventually(t, 30*time.Second, "member2 evaluated (witness taint)", func(ctx context.Context) (bool, string) {
		taint, err := clusterTaint(ctx, t, "member2", "e2e.mco-org.github.io/witness")
		return err == nil && taint != nil, fmt.Sprint(taint, err)
	})
	if taint, err := clusterTaint(context.Background(), t, "member2", maintenanceTaint); err != nil || taint != nil {
		t.Errorf("member2, not targeted, has taint %v (%v)", taint, err)
	}

	setClusterCondition(t, "member1", maintenanceCondition, metav1.ConditionFalse)
	eventually(t, 30*time.Second, "member1 untainted", func(ctx context.Context) (bool, string) {
		taint, err := clusterTaint(ctx, t, "member1", maintenanceTaint)
		if err != nil {
			return false, err.Error()
		}
		if taint != nil {
			return false, taint.ToString()
		}
		return true, ""
	})
	// Deleting a policy leaves its taints: take the witness off first.
	setClusterCondition(t, "member2", maintenanceCondition, metav1.ConditionFalse)
	eventually(t, 30*time.Second, "member2 without the witness taint", func(ctx context.Context) (bool, string) {
		taint, err := clusterTaint(ctx, t, "member2", "e2e.mco-org.github.io/witness")
		return err == nil && taint == nil, fmt.Sprint(taint, err)
	})
}
