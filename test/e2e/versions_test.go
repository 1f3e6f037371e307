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

// TestOlderMemberLacksAnAPI: a MutatingAdmissionPolicy
// (admissionregistration.k8s.io/v1, served by Kubernetes 1.37, not by
// 1.34) selected for every cluster goes to the members that serve it
// only, and its binding says, naming member2 and the API, why member2 got
// nothing.
func TestOlderMemberLacksAnAPI(t *testing.T) {
	framework.Parallel(t)
	if framework.MemberVersion("member2") == framework.OwnKubeVersion {
		t.Skip("member2 runs mco's own Kubernetes version (MCO_E2E_MEMBER_VERSIONS)")
	}
	name := "e2e-older-member-" + strings.ToLower(fmt.Sprint(time.Now().UnixNano()%100000))
	// Inert: no binding uses it, and it matches nothing that exists.
	kubectl(t, `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: `+name+`}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: ["e2e.mco-org.github.io"], apiVersions: ["v1"], operations: ["CREATE"], resources: ["nothings"]}]
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration: {expression: 'Object{metadata: Object.metadata{labels: {"e2e": "never"}}}'}
  failurePolicy: Ignore
  reinvocationPolicy: Never
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: `+name+`}
spec:
  resourceSelectors: [{apiVersion: admissionregistration.k8s.io/v1, kind: MutatingAdmissionPolicy, name: `+name+`}]
`, "apply", "-f", "-")
	t.Cleanup(func() {
		_, _ = kubectlErr("", "delete", "clusterpropagationpolicy", name, "--ignore-not-found")
		_, _ = kubectlErr("", "delete", "mutatingadmissionpolicies.admissionregistration.k8s.io", name, "--ignore-not-found")
	})
	binding := name + "-mutatingadmissionpolicy"
	eventually(t, time.Minute, "placed on the members that serve it, and member2 named", func(ctx context.Context) (bool, string) {
		clusters, _ := kubectlErr("", "get", "clusterresourcebindings.work.karmada.io", binding, "-o", "jsonpath={.spec.clusters[*].name}")
		events, _ := kubectlErr("", "get", "events", "-A", "--field-selector", "reason=APIIncompatible,involvedObject.name="+binding, "-o", "jsonpath={.items[*].message}")
		return clusters == "member1 member3" && strings.Contains(events, "member2 do not serve admissionregistration.k8s.io/v1 MutatingAdmissionPolicy"),
			fmt.Sprintf("clusters %q, events %q", clusters, events)
	})
	eventually(t, time.Minute, "the policy applied in member1", func(ctx context.Context) (bool, string) {
		_, err := memberClient(t, "member1").AdmissionregistrationV1().MutatingAdmissionPolicies().Get(ctx, name, metav1.GetOptions{})
		return err == nil, fmt.Sprint(err)
	})
}
