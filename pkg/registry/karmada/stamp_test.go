package karmada

import (
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/registry/resource"
)

func specOfKind(t *testing.T, kind string) *resource.Spec {
	t.Helper()
	for _, s := range Resources() {
		if s.Kind == kind {
			return s
		}
	}
	t.Fatalf("no spec for %s", kind)
	return nil
}

func TestOnCreateStampsKarmadaKinds(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		kind      string
		obj       func(metav1.ObjectMeta) runtime.Object
		label     string
		finalizer string
	}{
		{"A new PropagationPolicy gets a permanent ID and the policy finalizer.", "PropagationPolicy",
			func(m metav1.ObjectMeta) runtime.Object { return &policyv1alpha1.PropagationPolicy{ObjectMeta: m} },
			policyv1alpha1.PropagationPolicyPermanentIDLabel, policyv1alpha1.PropagationPolicyControllerFinalizer},
		{"A new ClusterPropagationPolicy gets a permanent ID and its finalizer.", "ClusterPropagationPolicy",
			func(m metav1.ObjectMeta) runtime.Object {
				return &policyv1alpha1.ClusterPropagationPolicy{ObjectMeta: m}
			},
			policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel, policyv1alpha1.ClusterPropagationPolicyControllerFinalizer},
		{"A new ResourceBinding gets a permanent ID.", "ResourceBinding",
			func(m metav1.ObjectMeta) runtime.Object { return &workv1alpha2.ResourceBinding{ObjectMeta: m} },
			workv1alpha2.ResourceBindingPermanentIDLabel, ""},
		{"A new ClusterResourceBinding gets a permanent ID.", "ClusterResourceBinding",
			func(m metav1.ObjectMeta) runtime.Object { return &workv1alpha2.ClusterResourceBinding{ObjectMeta: m} },
			workv1alpha2.ClusterResourceBindingPermanentIDLabel, ""},
		{"A new Work gets a permanent ID.", "Work",
			func(m metav1.ObjectMeta) runtime.Object { return &workv1alpha1.Work{ObjectMeta: m} },
			workv1alpha1.WorkPermanentIDLabel, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			onCreate := specOfKind(t, tc.kind).OnCreate
			if onCreate == nil {
				t.Fatal("no OnCreate hook")
			}
			bare := tc.obj(metav1.ObjectMeta{Name: "a", Labels: map[string]string{"app": "web"}})
			onCreate(bare)
			m := bare.(metav1.Object)
			if m.GetLabels()[tc.label] == "" || m.GetLabels()["app"] != "web" {
				t.Errorf("labels = %v, want %s set beside app=web", m.GetLabels(), tc.label)
			}
			other := tc.obj(metav1.ObjectMeta{Name: "b"})
			onCreate(other)
			if id := other.(metav1.Object).GetLabels()[tc.label]; id == m.GetLabels()[tc.label] {
				t.Errorf("two objects share the permanent ID %q", id)
			}
			if tc.finalizer != "" && !slices.Equal(m.GetFinalizers(), []string{tc.finalizer}) {
				t.Errorf("finalizers = %v, want [%s]", m.GetFinalizers(), tc.finalizer)
			}
			if tc.finalizer == "" && len(m.GetFinalizers()) != 0 {
				t.Errorf("finalizers = %v, want none", m.GetFinalizers())
			}

			// A client's own ID and finalizer are kept, not duplicated.
			var finalizers []string
			if tc.finalizer != "" {
				finalizers = []string{"example.com/other", tc.finalizer}
			}
			preset := tc.obj(metav1.ObjectMeta{Name: "c", Labels: map[string]string{tc.label: "restored-id"}, Finalizers: finalizers})
			onCreate(preset)
			pm := preset.(metav1.Object)
			if pm.GetLabels()[tc.label] != "restored-id" {
				t.Errorf("a client-set permanent ID was replaced by %q", pm.GetLabels()[tc.label])
			}
			if !slices.Equal(pm.GetFinalizers(), finalizers) {
				t.Errorf("finalizers = %v, want %v", pm.GetFinalizers(), finalizers)
			}
		})
	}
}

func TestOverrideAndTaintPoliciesAndClustersAreNotStamped(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"OverridePolicy", "ClusterOverridePolicy", "ClusterTaintPolicy", "Cluster"} {
		if specOfKind(t, kind).OnCreate != nil {
			t.Errorf("%s has an OnCreate hook", kind)
		}
	}
}
