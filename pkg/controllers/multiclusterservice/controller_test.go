package multiclusterservice

import (
	"encoding/json"
	"strings"
	"testing"

	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/mcs"
)

func TestCondition(t *testing.T) {
	t.Parallel()
	cross := &networkingv1alpha1.MultiClusterService{ObjectMeta: metav1.ObjectMeta{Generation: 3},
		Spec: networkingv1alpha1.MultiClusterServiceSpec{Types: []networkingv1alpha1.ExposureType{networkingv1alpha1.ExposureTypeCrossCluster}}}
	lb := cross.DeepCopy()
	lb.Spec.Types = []networkingv1alpha1.ExposureType{networkingv1alpha1.ExposureTypeLoadBalancer}
	cases := []struct {
		name           string
		svc            *networkingv1alpha1.MultiClusterService
		out            outcome
		status         metav1.ConditionStatus
		reason, inText string
	}{
		{"Dispatched.", cross, outcome{providers: []string{"member2"}, consumers: []string{"member1"}, slices: 2}, metav1.ConditionTrue,
			"EndpointSliceDispatchedSucceed", "2 EndpointSlice(s) of 1 provider(s) dispatched to consumer(s) member1"},
		{"A cluster not joined, a provider not ready.", cross, outcome{problems: []string{"provider member2 is not ready: its endpoints are withdrawn", "cluster(s) member9 have not joined"}},
			metav1.ConditionFalse, "EndpointSliceDispatchedFailed", "cluster(s) member9 have not joined; provider member2 is not ready"},
		{"LoadBalancer is not implemented.", lb, outcome{}, metav1.ConditionFalse, "LoadBalancerNotImplemented", "not implemented"},
	}
	for _, tc := range cases {
		c := condition(tc.svc, &tc.out)
		if c.Type != networkingv1alpha1.ConditionEndpointSliceDispatched || c.Status != tc.status || c.Reason != tc.reason ||
			!strings.Contains(c.Message, tc.inText) || c.ObservedGeneration != 3 {
			t.Errorf("%s: condition %+v", tc.name, c)
		}
	}
}

func TestSliceWork(t *testing.T) {
	t.Parallel()
	s := mcs.Dispatched("member2", &discoveryv1.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Name: "backend-abcde", Namespace: "shop",
		Labels: map[string]string{discoveryv1.LabelServiceName: "backend"}}, AddressType: discoveryv1.AddressTypeIPv4}, nil)
	w, err := sliceWork(viaMCS, key{"shop", "backend"}, "member1", s)
	if err != nil {
		t.Fatal(err)
	}
	if w.Namespace != "karmada-es-member1" || w.Labels[NamespaceLabel] != "shop" || w.Labels[NameLabel] != "backend" ||
		len(w.Finalizers) != 1 || w.Finalizers[0] != workv1alpha1.ExecutionControllerFinalizer {
		t.Errorf("work %+v", w.ObjectMeta)
	}
	var got discoveryv1.EndpointSlice
	if err := json.Unmarshal(w.Spec.Workload.Manifests[0].Raw, &got); err != nil || got.Kind != "EndpointSlice" || got.Name != "member2-backend-abcde" {
		t.Errorf("manifest %+v, %v", got, err)
	}
	if k, ok := workService(w); !ok || k != (key{"shop", "backend"}) {
		t.Errorf("workService = %v, %v", k, ok)
	}
}

func TestImportedSliceWork(t *testing.T) {
	t.Parallel()
	s := mcs.Imported("member2", &discoveryv1.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Name: "backend-abcde", Namespace: "shop",
		Labels: map[string]string{discoveryv1.LabelServiceName: "backend"}}, AddressType: discoveryv1.AddressTypeIPv4})
	w, err := sliceWork(viaImport, key{"shop", "backend"}, "member1", s)
	if err != nil {
		t.Fatal(err)
	}
	if w.Labels[ImportNamespaceLabel] != "shop" || w.Labels[ImportNameLabel] != "backend" || w.Labels[NameLabel] != "" {
		t.Errorf("work labels %v", w.Labels)
	}
	if k, ok := workService(w); !ok || k != (key{"shop", "backend"}) {
		t.Errorf("workService = %v, %v", k, ok)
	}
	if k, ok := sliceService(s); !ok || k != (key{"shop", "backend"}) {
		t.Errorf("sliceService(%s) = %v, %v", s.Name, k, ok)
	}
}

func TestBindingChanged(t *testing.T) {
	t.Parallel()
	rb := &workv1alpha2.ResourceBinding{Spec: workv1alpha2.ResourceBindingSpec{Clusters: []workv1alpha2.TargetCluster{{Name: "member1"}}}}
	status := rb.DeepCopy()
	status.Status.SchedulerObservedGeneration = 4
	moved := rb.DeepCopy()
	moved.Spec.Clusters = []workv1alpha2.TargetCluster{{Name: "member2"}}
	if bindingChanged(rb, status) {
		t.Error("a status write counts as a change")
	}
	if !bindingChanged(rb, moved) {
		t.Error("new clusters do not count")
	}
}

func TestReadinessChanged(t *testing.T) {
	t.Parallel()
	cluster := func(ready metav1.ConditionStatus, hb string) *clusterv1alpha1.Cluster {
		return &clusterv1alpha1.Cluster{Status: clusterv1alpha1.ClusterStatus{Conditions: []metav1.Condition{
			{Type: clusterv1alpha1.ClusterConditionReady, Status: ready, Message: hb}}}}
	}
	if readinessChanged(cluster(metav1.ConditionTrue, "a"), cluster(metav1.ConditionTrue, "b")) {
		t.Error("a heartbeat counts as a readiness change")
	}
	if !readinessChanged(cluster(metav1.ConditionTrue, "a"), cluster(metav1.ConditionFalse, "a")) {
		t.Error("turning not ready does not count")
	}
}
