package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/testing/chartrepo"
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
	kubectl(t, framework.InertMutatingAdmissionPolicy(name)+`---
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

// TestOlderMemberDropsANewerField: a Deployment whose pod template sets
// hostnameOverride (a field Kubernetes 1.34 has behind a feature gate that
// is off, on by default since 1.35) goes to member1 and member2. member1
// keeps it; member2 drops it, and mco says so on member2's Work (Degraded,
// FieldsDropped), on the binding (member2's appliedMessage) and by a
// Warning Event on the template, without applying it again; an
// OverridePolicy removing the field for member2 clears it all.
func TestOlderMemberDropsANewerField(t *testing.T) {
	framework.Parallel(t)
	if framework.MemberVersion("member2") == framework.OwnKubeVersion {
		t.Skip("member2 runs mco's own Kubernetes version (MCO_E2E_MEMBER_VERSIONS)")
	}
	ns := namespace(t, "e2e-field-skew")
	kubectl(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: `+ns+`}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      hostnameOverride: web-host
      containers: [{name: app, image: nginx:1.27}]
---
`+duplicatedPolicy(ns, "web", "member1, member2"), "apply", "-f", "-")
	_, mco := mcoClients(t)
	work := func(ctx context.Context, member string) (*workv1alpha1.Work, error) {
		return mco.WorkV1alpha1().Works(names.ExecutionSpace(member)).Get(ctx, names.Work("Deployment", "web", ns), metav1.GetOptions{})
	}
	field := "Deployment " + ns + "/web (spec.template.spec.hostnameOverride)"
	eventually(t, 2*time.Minute, "member2's Work Degraded, the binding and the Event saying so", func(ctx context.Context) (bool, string) {
		w, err := work(ctx, "member2")
		if err != nil {
			return false, err.Error()
		}
		c := apimeta.FindStatusCondition(w.Status.Conditions, workv1alpha1.WorkDegraded)
		if c == nil || c.Reason != "FieldsDropped" || !strings.Contains(c.Message, "Cluster member2 (Kubernetes "+framework.MemberVersion("member2")+")") || !strings.Contains(c.Message, field) {
			return false, fmt.Sprintf("member2's Work conditions %+v", w.Status.Conditions)
		}
		msg, _ := kubectlErr("", "get", "resourcebindings.work.karmada.io", "web-deployment", "-n", ns, "-o",
			`jsonpath={.status.aggregatedStatus[?(@.clusterName=="member2")].appliedMessage}`)
		events, _ := kubectlErr("", "get", "events", "-n", ns, "--field-selector", "type=Warning,reason=FieldsDropped,involvedObject.kind=Deployment", "-o", "jsonpath={.items[*].message}")
		return strings.Contains(msg, field) && strings.Contains(events, field), fmt.Sprintf("binding %q, events %q", msg, events)
	})
	// Both members run the Deployment; member1 with the field, member2 without.
	eventually(t, 2*time.Minute, "the template Available in both members", func(ctx context.Context) (bool, string) {
		out, _ := kubectlErr("", "get", "resourcebindings.work.karmada.io", "web-deployment", "-n", ns, "-o",
			`jsonpath={range .status.aggregatedStatus[*]}{.clusterName}={.applied}/{.health} {end}`)
		return out == "member1=true/Healthy member2=true/Healthy ", out
	})
	if got := memberDeployment(t, "member1", ns, "web").Spec.Template.Spec.HostnameOverride; got == nil || *got != "web-host" {
		t.Errorf("member1 (mco's own version) lost hostnameOverride: %v", got)
	}
	d2 := memberDeployment(t, "member2", ns, "web")
	if d2.Spec.Template.Spec.HostnameOverride != nil || d2.Generation != 1 {
		t.Errorf("member2's Deployment: hostnameOverride %v, generation %d (applied once, the field dropped)", d2.Spec.Template.Spec.HostnameOverride, d2.Generation)
	}
	if w, err := work(context.Background(), "member1"); err != nil || apimeta.FindStatusCondition(w.Status.Conditions, workv1alpha1.WorkDegraded) != nil {
		t.Errorf("member1's Work is Degraded, or missing: %v", err)
	}
	if w, err := work(context.Background(), "member2"); err != nil || w.Generation != 1 {
		t.Errorf("member2's Work was rewritten: %v", err)
	}

	kubectl(t, `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: web-member2, namespace: `+ns+`}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  overrideRules:
  - targetCluster: {clusterNames: [member2]}
    overriders:
      plaintext: [{path: /spec/template/spec/hostnameOverride, operator: remove}]
`, "apply", "-f", "-")
	eventually(t, 2*time.Minute, "the override clearing member2's Degraded and the binding's message", func(ctx context.Context) (bool, string) {
		w, err := work(ctx, "member2")
		if err != nil {
			return false, err.Error()
		}
		c := apimeta.FindStatusCondition(w.Status.Conditions, workv1alpha1.WorkDegraded)
		msg, _ := kubectlErr("", "get", "resourcebindings.work.karmada.io", "web-deployment", "-n", ns, "-o",
			`jsonpath={.status.aggregatedStatus[?(@.clusterName=="member2")].appliedMessage}`)
		return w.Generation > 1 && c == nil && msg == "", fmt.Sprintf("work generation %d, Degraded %+v, binding %q", w.Generation, c, msg)
	})
}

// TestAddonAcrossMemberVersions: an add-on renders in each member with
// that member's own .Capabilities.KubeVersion, and one whose chart declares
// kubeVersion ">=1.35.0-0" is Blocked on member2 (older), saying why, and
// installed on member1.
func TestAddonAcrossMemberVersions(t *testing.T) {
	framework.Parallel(t)
	if framework.MemberVersion("member2") == framework.OwnKubeVersion {
		t.Skip("member2 runs mco's own Kubernetes version (MCO_E2E_MEMBER_VERSIONS)")
	}
	newer := tinyChart(t, "2.0.0", nil)
	newer.KubeVersion = ">=1.35.0-0"
	repo := chartrepo.Serve(t, tinyChart(t, "1.0.0", nil), newer)
	plain, recent := "e2e-versions-plain", "e2e-versions-recent"
	removeAddon(t, plain)
	removeAddon(t, recent)
	both := "    clusterAffinity: {clusterNames: [member1, member2]}"
	kubectl(t, addonYAML(plain, repo.URL, "1.0.0", plain, "", both)+"---\n"+addonYAML(recent, repo.URL, "2.0.0", recent, "", both), "apply", "-f", "-")

	waitAddon(t, recent, map[string]string{
		"member1": "Healthy",
		"member2": fmt.Sprintf(`Blocked|cluster member2 runs Kubernetes %s, outside the chart's kubeVersion ">=1.35.0-0"`, framework.MemberVersion("member2")),
	}, 2*time.Minute)
	waitAddon(t, plain, map[string]string{"member1": "Healthy", "member2": "Healthy"}, 2*time.Minute)
	for _, member := range []string{"member1", "member2"} {
		cm, err := memberClient(t, member).CoreV1().ConfigMaps(plain).Get(context.Background(), plain+"-settings", metav1.GetOptions{})
		if want := framework.MemberVersion(member); err != nil || cm.Data["kube"] != want {
			t.Errorf("%s rendered .Capabilities.KubeVersion %q, want its own %s (%v)", member, cm.Data["kube"], want, err)
		}
	}
	if _, err := memberClient(t, "member2").CoreV1().Namespaces().Get(context.Background(), recent, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("member2 has the namespace of %s, blocked there: %v", recent, err)
	}
}

// TestOlderMemberRefusesAnUnknownField: a CSIDriver setting
// preventPodSchedulingIfMissing (not in Kubernetes 1.34's schema) goes to
// member1 and member2. member2 refuses it (server-side apply does not drop
// undeclared fields): its Work says so (Applied False, FieldsUnknown) with
// the field's path, as does the binding; a ClusterOverridePolicy removing
// the field for member2 gets it applied there.
func TestOlderMemberRefusesAnUnknownField(t *testing.T) {
	framework.Parallel(t)
	if framework.MemberVersion("member2") == framework.OwnKubeVersion {
		t.Skip("member2 runs mco's own Kubernetes version (MCO_E2E_MEMBER_VERSIONS)")
	}
	name := fmt.Sprintf("e2e-%d.csi.example.com", time.Now().UnixNano()%100000)
	kubectl(t, `apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: `+name+`}
spec: {attachRequired: false, preventPodSchedulingIfMissing: true}
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: `+name+`}
spec:
  resourceSelectors: [{apiVersion: storage.k8s.io/v1, kind: CSIDriver, name: `+name+`}]
  placement: {clusterAffinity: {clusterNames: [member1, member2]}}
`, "apply", "-f", "-")
	t.Cleanup(func() {
		_, _ = kubectlErr("", "delete", "clusteroverridepolicy", name, "--ignore-not-found")
		_, _ = kubectlErr("", "delete", "clusterpropagationpolicy", name, "--ignore-not-found")
		_, _ = kubectlErr("", "delete", "csidriver", name, "--ignore-not-found")
	})
	binding := name + "-csidriver"
	want := fmt.Sprintf("Cluster member2 (Kubernetes %s) refuses CSIDriver %s (spec.preventPodSchedulingIfMissing)", framework.MemberVersion("member2"), name)
	eventually(t, 2*time.Minute, "member2's refusal on its Work and the binding", func(ctx context.Context) (bool, string) {
		w, err := framework.MCO(t).WorkV1alpha1().Works(names.ExecutionSpace("member2")).Get(ctx, names.Work("CSIDriver", name, ""), metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		c := apimeta.FindStatusCondition(w.Status.Conditions, workv1alpha1.WorkApplied)
		out, _ := kubectlErr("", "get", "clusterresourcebindings.work.karmada.io", binding, "-o",
			`jsonpath={.status.aggregatedStatus[?(@.clusterName=="member2")].applied} {.status.aggregatedStatus[?(@.clusterName=="member2")].appliedMessage}`)
		return c != nil && c.Status == metav1.ConditionFalse && c.Reason == "FieldsUnknown" && strings.Contains(c.Message, want) &&
			!strings.HasPrefix(out, "true") && strings.Contains(out, want), fmt.Sprintf("work %+v, binding %q", c, out)
	})
	if d, err := memberClient(t, "member1").StorageV1().CSIDrivers().Get(context.Background(), name, metav1.GetOptions{}); err != nil ||
		d.Spec.PreventPodSchedulingIfMissing == nil || !*d.Spec.PreventPodSchedulingIfMissing {
		t.Errorf("member1 (mco's own version) lacks the CSIDriver or its field: %v", err)
	}

	kubectl(t, `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterOverridePolicy
metadata: {name: `+name+`}
spec:
  resourceSelectors: [{apiVersion: storage.k8s.io/v1, kind: CSIDriver, name: `+name+`}]
  overrideRules:
  - targetCluster: {clusterNames: [member2]}
    overriders:
      plaintext: [{path: /spec/preventPodSchedulingIfMissing, operator: remove}]
`, "apply", "-f", "-")
	eventually(t, 2*time.Minute, "the CSIDriver applied in member2 without the field", func(ctx context.Context) (bool, string) {
		_, err := memberClient(t, "member2").StorageV1().CSIDrivers().Get(ctx, name, metav1.GetOptions{})
		out, _ := kubectlErr("", "get", "clusterresourcebindings.work.karmada.io", binding, "-o",
			`jsonpath={range .status.aggregatedStatus[*]}{.clusterName}={.applied} {end}`)
		return err == nil && out == "member1=true member2=true ", fmt.Sprintf("%v, binding %q", err, out)
	})
}
