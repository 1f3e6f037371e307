package integration

import (
	"context"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/test/integration/framework"
)

// TestRemedy: a Remedy applied as Karmada's users write it records
// TrafficControl on the Cluster whose ServiceDomainNameResolutionReady
// condition (set by a checker outside mco) is False, keeps it while the
// condition holds, and clears it when the condition recovers and when
// the Remedy goes; the cluster status controller leaves the condition and
// the actions alone.
func TestRemedy(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	client, err := mcoclient.NewForConfig(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	createReadyCluster(t, client, "member1", "8", "32Gi")
	framework.StartControllerManager(t, s, "--controllers=remedy")
	ctx := context.Background()
	setDNS := func(status metav1.ConditionStatus) {
		t.Helper()
		c, err := client.ClusterV1alpha1().Clusters().Get(ctx, "member1", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		meta.SetStatusCondition(&c.Status.Conditions, metav1.Condition{Type: "ServiceDomainNameResolutionReady", Status: status, Reason: "Checked"})
		if _, err := client.ClusterV1alpha1().Clusters().UpdateStatus(ctx, c, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	actions := func() string {
		c, err := client.ClusterV1alpha1().Clusters().Get(ctx, "member1", metav1.GetOptions{})
		if err != nil {
			return err.Error()
		}
		return strings.Join(c.Status.RemedyActions, ",")
	}
	setDNS(metav1.ConditionFalse)
	s.MustKubectl(t, `apiVersion: remedy.karmada.io/v1alpha1
kind: Remedy
metadata: {name: foo}
spec:
  decisionMatches:
  - clusterConditionMatch: {conditionType: ServiceDomainNameResolutionReady, operator: Equal, conditionStatus: "False"}
  actions: [TrafficControl]
`, "apply", "-f", "-")
	waitFor(t, 30*time.Second, "TrafficControl on member1", func() bool { return actions() == "TrafficControl" })
	if out := s.MustKubectl(t, "", "get", "remedies"); !strings.Contains(out, "foo") {
		t.Errorf("kubectl get remedies:\n%s", out)
	}
	setDNS(metav1.ConditionTrue)
	waitFor(t, 30*time.Second, "no action once the condition recovers", func() bool { return actions() == "" })
	setDNS(metav1.ConditionFalse)
	waitFor(t, 30*time.Second, "TrafficControl again", func() bool { return actions() == "TrafficControl" })
	s.MustKubectl(t, "", "delete", "remedy", "foo")
	waitFor(t, 30*time.Second, "no action once the Remedy is gone", func() bool { return actions() == "" })

	_, errOut, err := s.Kubectl(t, `apiVersion: remedy.karmada.io/v1alpha1
kind: Remedy
metadata: {name: bad}
spec:
  decisionMatches: [{clusterConditionMatch: {conditionType: ServiceDomainNameResolutionReady, operator: Above, conditionStatus: "False"}}]
`, "apply", "-f", "-")
	if err == nil || !strings.Contains(errOut, "spec.decisionMatches[0].clusterConditionMatch.operator") {
		t.Errorf("an unknown operator: %v %s", err, errOut)
	}
}
