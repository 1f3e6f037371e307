package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/test/e2e/framework"
)

// crdYAML is a CustomResourceDefinition of kind in group, with a status
// subresource and a defaulted field.
func crdYAML(group, kind, plural, scope string) string {
	return fmt.Sprintf(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: %[3]s.%[1]s}
spec:
  group: %[1]s
  names: {kind: %[2]s, plural: %[3]s, listKind: %[2]sList, singular: %[4]s}
  scope: %[5]s
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: string, default: small}
              replicas: {type: integer}
          status:
            type: object
            properties:
              phase: {type: string}
`, group, kind, plural, strings.ToLower(kind), scope)
}

// crdPolicies carry a CRD (by name) and its namespaced instances to member1
// and member2.
func crdPolicies(ns, crd, apiVersion, kind string) string {
	return fmt.Sprintf(`apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: %[1]s-crd}
spec:
  resourceSelectors: [{apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: %[2]s}]
  placement: {clusterAffinity: {clusterNames: [member1, member2]}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: instances, namespace: %[1]s}
spec:
  resourceSelectors: [{apiVersion: %[3]s, kind: %[4]s}]
  placement: {clusterAffinity: {clusterNames: [member1, member2]}}
`, ns, crd, apiVersion, kind)
}

func widgetYAML(ns, name string) string {
	return fmt.Sprintf("apiVersion: shop.e2e.example.com/v1\nkind: Widget\nmetadata: {name: %s, namespace: %s}\nspec: {replicas: 2}\n", name, ns)
}

// applyUntilMapped runs kubectl apply until it succeeds: kubectl maps every
// document before it sends any, so custom resources applied in the same
// file as their CRD fail the first time ("ensure CRDs are installed
// first"), on mco as on any kube-apiserver, and pass once it is served.
// Between discovery listing a new kind and its handler serving it, a
// create may also be answered NotFound (the same window as on
// kube-apiserver): tried again too.
func applyUntilMapped(t *testing.T, yaml string) {
	t.Helper()
	eventually(t, 30*time.Second, "kubectl apply of the CRD and its instances", func(ctx context.Context) (bool, string) {
		out, err := kubectlErr(yaml, "apply", "-f", "-")
		if err != nil && !strings.Contains(out, "ensure CRDs are installed first") &&
			!strings.Contains(out, "the server could not find the requested resource") {
			t.Fatalf("kubectl apply: %v\n%s", err, out)
		}
		return err == nil, out
	})
}

// TestCustomResourcesPropagate: a CRD and two of its instances, applied
// together, reach member1 and member2; each instance's status in a member
// comes back into its binding; a second CRD created while everything runs
// (cluster-scoped) propagates too; deleting the CRD on mco removes its
// instances' bindings and Works and the CRD and instances in the members.
func TestCustomResourcesPropagate(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-crd")
	const crd = "widgets.shop.e2e.example.com"
	widgets := schema.GroupVersionResource{Group: "shop.e2e.example.com", Version: "v1", Resource: "widgets"}
	crds := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	start := time.Now()
	applyUntilMapped(t, crdPolicies(ns, crd, "shop.e2e.example.com/v1", "Widget")+"---\n"+
		crdYAML("shop.e2e.example.com", "Widget", "widgets", "Namespaced")+"---\n"+widgetYAML(ns, "w1")+"---\n"+widgetYAML(ns, "w2"))
	waitInMembers(t, []string{"member1", "member2"}, []memberObject{
		{crds, "", crd}, {widgets, ns, "w1"}, {widgets, ns, "w2"},
	}, true)
	t.Logf("CRD and both instances in member1 and member2 %s after the first apply", time.Since(start).Round(time.Millisecond))
	waitInMembers(t, []string{"member3"}, []memberObject{{crds, "", crd}}, false)

	// Defaults came from mco's schema; the member keeps them.
	got, err := memberDynamic(t, "member1").Resource(widgets).Namespace(ns).Get(context.Background(), "w1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if size, _, _ := unstructured.NestedString(got.Object, "spec", "size"); size != "small" {
		t.Errorf("member1's w1 has spec.size %q, want the default small", size)
	}

	// A member's status of an instance appears in its binding.
	m1 := memberDynamic(t, "member1").Resource(widgets).Namespace(ns)
	eventually(t, 30*time.Second, "status of w1 in member1", func(ctx context.Context) (bool, string) {
		w, err := m1.Get(ctx, "w1", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		_ = unstructured.SetNestedField(w.Object, "Running", "status", "phase")
		_, err = m1.UpdateStatus(ctx, w, metav1.UpdateOptions{})
		return err == nil, fmt.Sprint(err)
	})
	_, mco := mcoClients(t)
	rb := names.Binding("Widget", "w1")
	eventually(t, 60*time.Second, "member1's status of w1 in its binding", func(ctx context.Context) (bool, string) {
		b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, rb, metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		for _, it := range b.Status.AggregatedStatus {
			if it.ClusterName != "member1" || it.Status == nil {
				continue
			}
			var s struct{ Phase string }
			if json.Unmarshal(it.Status.Raw, &s) == nil && s.Phase == "Running" {
				return true, ""
			}
			return false, "member1 reports " + string(it.Status.Raw)
		}
		return false, fmt.Sprintf("aggregated status %v", b.Status.AggregatedStatus)
	})
	// Without an interpreter nothing is written onto the template's status.
	if out := kubectl(t, "", "-n", ns, "get", "widget", "w1", "-o", "jsonpath={.status}"); out != "" {
		t.Errorf("w1 on mco has status %s, want none", out)
	}

	// A cluster-scoped kind defined now, with every component running.
	const gadgetCRD = "gadgets.lab.e2e.example.com"
	gadgets := schema.GroupVersionResource{Group: "lab.e2e.example.com", Version: "v1", Resource: "gadgets"}
	applyUntilMapped(t, crdYAML("lab.e2e.example.com", "Gadget", "gadgets", "Cluster")+`---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: gadgets}
spec:
  resourceSelectors:
  - {apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: `+gadgetCRD+`}
  - {apiVersion: lab.e2e.example.com/v1, kind: Gadget}
  placement: {clusterAffinity: {clusterNames: [member2]}}
---
apiVersion: lab.e2e.example.com/v1
kind: Gadget
metadata: {name: g1}
spec: {size: large}
`)
	waitInMembers(t, []string{"member2"}, []memberObject{{crds, "", gadgetCRD}, {gadgets, "", "g1"}}, true)

	// The CRD deleted on mco: its instances, their bindings and Works, and
	// the CRD and instances in the members go.
	kubectl(t, "", "delete", "crd", crd, "--wait=false")
	eventually(t, 90*time.Second, "bindings and Works of the instances gone", func(ctx context.Context) (bool, string) {
		for _, w := range []string{"w1", "w2"} {
			_, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, names.Binding("Widget", w), metav1.GetOptions{})
			if !apierrors.IsNotFound(err) {
				return false, fmt.Sprintf("binding of %s: %v", w, err)
			}
		}
		for _, m := range []string{"member1", "member2"} {
			list, err := mco.WorkV1alpha1().Works(names.ExecutionSpace(m)).List(ctx, metav1.ListOptions{})
			if err != nil {
				return false, err.Error()
			}
			for _, w := range list.Items {
				for _, man := range w.Spec.Workload.Manifests {
					if strings.Contains(string(man.Raw), `"kind":"Widget"`) {
						return false, "Work " + w.Name + " in " + m + " remains"
					}
				}
			}
		}
		return true, ""
	})
	waitInMembers(t, []string{"member1", "member2"}, []memberObject{{widgets, ns, "w1"}, {crds, "", crd}}, false)
	kubectl(t, "", "delete", "crd", gadgetCRD, "--wait=false")
	waitInMembers(t, []string{"member2"}, []memberObject{{crds, "", gadgetCRD}}, false)
}

// TestCustomResourcesAfterControllerManagerKill: mco-controller-manager
// killed with SIGKILL between a CRD and its instances; started again,
// every member ends with the CRD and every instance.
func TestCustomResourcesAfterControllerManagerKill(t *testing.T) {
	framework.Serial(t, "kills and restarts mco-controller-manager")
	ns := namespace(t, "e2e-crd-crash")
	const crd = "sprockets.crash.e2e.example.com"
	gv := "crash.e2e.example.com/v1"
	applyUntilMapped(t, crdPolicies(ns, crd, gv, "Sprocket")+"---\n"+crdYAML("crash.e2e.example.com", "Sprocket", "sprockets", "Namespaced"))
	mcoKubectl().WaitEstablished(t, "crd/"+crd)
	cm := framework.Env.MCO.ControllerManager
	if err := cm.Kill(); err != nil {
		t.Fatal(err)
	}
	// A failure before the restart below must not leave the suite
	// without a controller-manager.
	t.Cleanup(func() {
		if !cm.Running() {
			_ = cm.Restart()
		}
	})
	var b strings.Builder
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&b, "---\napiVersion: %s\nkind: Sprocket\nmetadata: {name: s%d, namespace: %s}\nspec: {replicas: 1}\n", gv, i, ns)
	}
	kubectl(t, b.String(), "apply", "-f", "-")
	if err := cm.Restart(); err != nil {
		t.Fatal(err)
	}
	sprockets := schema.GroupVersionResource{Group: "crash.e2e.example.com", Version: "v1", Resource: "sprockets"}
	var want []memberObject
	for i := 0; i < 5; i++ {
		want = append(want, memberObject{sprockets, ns, fmt.Sprintf("s%d", i)})
	}
	waitInMembers(t, []string{"member1", "member2"}, want, true)
	kubectl(t, "", "delete", "crd", crd, "--wait=false")
	waitInMembers(t, []string{"member1", "member2"}, []memberObject{{sprockets, ns, "s0"}}, false)
}
