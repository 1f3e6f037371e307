package upgrade

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mco-org/mco/test/e2e/framework"
)

// templates: a MutatingAdmissionPolicy (admissionregistration.k8s.io/v1:
// served from Kubernetes 1.36), a CSIDriver setting
// preventPodSchedulingIfMissing (not in 1.35's schema, behind a gate off in
// 1.36, on from 1.37) and a Deployment, each for every member.
var templates = framework.InertMutatingAdmissionPolicy("upgrade-policy") + `---
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: upgrade.csi.example.com}
spec: {attachRequired: false, preventPodSchedulingIfMissing: true}
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: upgrade}
spec:
  resourceSelectors:
  - {apiVersion: admissionregistration.k8s.io/v1, kind: MutatingAdmissionPolicy, name: upgrade-policy}
  - {apiVersion: storage.k8s.io/v1, kind: CSIDriver, name: upgrade.csi.example.com}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: nginx:1.27}]}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement: {replicaScheduling: {replicaSchedulingType: Duplicated}}
`

// TestMemberUpgradedInPlace: member2 goes v1.35 → v1.36 → mco's own
// version in place while mco runs, and nobody touches the templates. On
// 1.35 the policy is kept from member2 with the reason on its binding, and
// member2 refuses the CSIDriver for its unknown field, which mco reports and
// does not retry; on 1.36 the policy is placed and applied there and the
// CSIDriver is applied without the field (gated off), reported; on 1.37
// the field lands. The Deployment stays Healthy throughout.
func TestMemberUpgradedInPlace(t *testing.T) {
	kubectl(t, templates, "apply", "-f", "-")
	first := steps[0]
	waitVersion(t, first)
	waitCSI(t, "member2 refusing the CSIDriver's unknown field", fmt.Sprintf("Cluster member2 (Kubernetes %s) refuses CSIDriver upgrade.csi.example.com (spec.preventPodSchedulingIfMissing)", first))
	waitPlaced(t, "member1")
	waitHealthy(t)
	if n := refusals(t); n != 1 {
		t.Errorf("member2's refusal of the CSIDriver was tried %v times, want once (not retried while nothing changes)", n)
	}

	for _, v := range steps[1:] {
		start := time.Now()
		if err := suite.env.Upgrade(context.Background(), "member2", v); err != nil {
			t.Fatal(err)
		}
		t.Logf("member2 upgraded in place to %s in %s", shown(v), time.Since(start).Round(100*time.Millisecond))
		waitVersion(t, shown(v))
		waitPlaced(t, "member1 member2")
		if v == "" {
			waitKept(t)
		} else {
			waitCSI(t, "member2 dropping the CSIDriver's gated field", fmt.Sprintf("Cluster member2 (Kubernetes %s) applied the manifest without fields it does not know or has switched off: CSIDriver upgrade.csi.example.com (spec.preventPodSchedulingIfMissing)", v))
		}
		waitHealthy(t)
		t.Logf("%s after the upgrade began, mco had caught up with member2 on %s", time.Since(start).Round(100*time.Millisecond), shown(v))
	}
	if out, err := member2(t, "get", "mutatingadmissionpolicies.admissionregistration.k8s.io", "upgrade-policy", "-o", "name"); err != nil {
		t.Errorf("member2 lacks the policy after its upgrade: %v %s", err, out)
	}
}

// refusals counts mco-controller-manager's failed applies of the CSIDriver
// in member2.
func refusals(t *testing.T) float64 {
	t.Helper()
	resp, err := http.Get(suite.env.MCO.ControllerManagerURL() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var n float64
	for _, line := range strings.Split(string(body), "\n") {
		if (strings.HasPrefix(line, "create_resource_to_cluster{") || strings.HasPrefix(line, "update_resource_to_cluster{")) && strings.Contains(line, `kind="CSIDriver"`) &&
			strings.Contains(line, `member_cluster="member2"`) && strings.Contains(line, `result="error"`) {
			var v float64
			fmt.Sscanf(line[strings.LastIndex(line, " ")+1:], "%g", &v)
			n += v
		}
	}
	return n
}

// shown is how a step's version reads (mco's own when empty).
func shown(v string) string {
	if v == "" {
		return framework.OwnKubeVersion
	}
	return v
}

func waitVersion(t *testing.T, v string) {
	t.Helper()
	eventually(t, 2*time.Minute, "member2 reporting "+v, func(ctx context.Context) (bool, string) {
		out, _ := kubectlErr("", "get", "cluster", "member2", "-o", "jsonpath={.status.kubernetesVersion}")
		return out == v, out
	})
}

func waitPlaced(t *testing.T, clusters string) {
	t.Helper()
	eventually(t, 2*time.Minute, "the policy placed on "+clusters, func(ctx context.Context) (bool, string) {
		out, _ := kubectlErr("", "get", "clusterresourcebindings.work.karmada.io", "upgrade-policy-mutatingadmissionpolicy", "-o",
			"jsonpath={.spec.clusters[*].name}")
		return out == clusters, out
	})
	if clusters == "member1" {
		eventually(t, time.Minute, "the binding naming member2 and the API", func(ctx context.Context) (bool, string) {
			out, _ := kubectlErr("", "get", "events", "-A", "--field-selector", "reason=APIIncompatible", "-o", "jsonpath={.items[*].message}")
			return strings.Contains(out, "member2 do not serve admissionregistration.k8s.io/v1 MutatingAdmissionPolicy"), out
		})
	}
}

// csiApplied is what the CSIDriver's binding says of member2's apply.
func csiApplied() string {
	out, _ := kubectlErr("", "get", "clusterresourcebindings.work.karmada.io", "upgrade.csi.example.com-csidriver", "-o",
		`jsonpath={.status.aggregatedStatus[?(@.clusterName=="member2")].appliedMessage}`)
	return out
}

func waitCSI(t *testing.T, what, want string) {
	t.Helper()
	eventually(t, 2*time.Minute, what, func(ctx context.Context) (bool, string) {
		got := csiApplied()
		return strings.Contains(got, want), got
	})
}

func waitKept(t *testing.T) {
	t.Helper()
	eventually(t, 2*time.Minute, "member2 keeping the CSIDriver's field", func(ctx context.Context) (bool, string) {
		got := csiApplied()
		field, _ := member2(t, "get", "csidriver", "upgrade.csi.example.com", "-o", "jsonpath={.spec.preventPodSchedulingIfMissing}")
		return got == "" && field == "true", fmt.Sprintf("binding %q, member2's field %q", got, field)
	})
}

func waitHealthy(t *testing.T) {
	t.Helper()
	eventually(t, 2*time.Minute, "the Deployment healthy in both members", func(ctx context.Context) (bool, string) {
		out, _ := kubectlErr("", "get", "resourcebindings.work.karmada.io", "web-deployment", "-n", "default", "-o",
			`jsonpath={range .status.aggregatedStatus[*]}{.clusterName}={.health} {end}`)
		return out == "member1=Healthy member2=Healthy ", out
	})
}

// member2 runs kubectl against member2.
func member2(t *testing.T, args ...string) (string, error) {
	t.Helper()
	k := mcoKubectl()
	k.Kubeconfig = suite.env.Member("member2").Kubeconfig
	return k.Run("", args...)
}
