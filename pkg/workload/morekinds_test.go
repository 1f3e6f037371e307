package workload

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

func TestAggregateStatusOfIngress(t *testing.T) {
	t.Parallel()
	lb := func(points ...networkingv1.IngressLoadBalancerIngress) *networkingv1.IngressStatus {
		return &networkingv1.IngressStatus{LoadBalancer: networkingv1.IngressLoadBalancerStatus{Ingress: points}}
	}
	items := []workv1alpha2.AggregatedStatusItem{
		report(t, "m2", lb(networkingv1.IngressLoadBalancerIngress{IP: "10.0.0.2"}, networkingv1.IngressLoadBalancerIngress{})),
		report(t, "m1", lb(networkingv1.IngressLoadBalancerIngress{Hostname: "lb.example.com"}, networkingv1.IngressLoadBalancerIngress{IP: "10.0.0.2"})),
		report(t, "m3", nil),
	}
	got := aggregateAs[networkingv1.IngressStatus](t, object(t, "networking.k8s.io/v1", "Ingress", &networkingv1.Ingress{}), items)
	want := []networkingv1.IngressLoadBalancerIngress{{Hostname: "lb.example.com"}, {IP: "10.0.0.2"}}
	if diff := cmp.Diff(want, got.LoadBalancer.Ingress); diff != "" {
		t.Errorf("ingress points (-want +got):\n%s", diff)
	}
}

func TestAggregateStatusOfCronJob(t *testing.T) {
	t.Parallel()
	job := func(name string) corev1.ObjectReference { return corev1.ObjectReference{Kind: "Job", Name: name} }
	items := []workv1alpha2.AggregatedStatusItem{
		report(t, "m1", &batchv1.CronJobStatus{Active: []corev1.ObjectReference{job("a")}, LastScheduleTime: at(10, 5), LastSuccessfulTime: at(10, 0)}),
		report(t, "m2", &batchv1.CronJobStatus{Active: []corev1.ObjectReference{job("b")}, LastScheduleTime: at(10, 0), LastSuccessfulTime: at(10, 1)}),
		report(t, "m3", &batchv1.CronJobStatus{}),
		report(t, "m4", nil),
	}
	got := aggregateAs[batchv1.CronJobStatus](t, object(t, "batch/v1", "CronJob", &batchv1.CronJob{}), items)
	want := batchv1.CronJobStatus{Active: []corev1.ObjectReference{job("a"), job("b")}, LastScheduleTime: at(10, 5), LastSuccessfulTime: at(10, 1)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CronJob status (-want +got):\n%s", diff)
	}
}

func TestAggregateStatusOfPodDisruptionBudget(t *testing.T) {
	t.Parallel()
	items := []workv1alpha2.AggregatedStatusItem{
		report(t, "m1", &policyv1.PodDisruptionBudgetStatus{CurrentHealthy: 2, DesiredHealthy: 1, ExpectedPods: 2, DisruptionsAllowed: 1,
			DisruptedPods: map[string]metav1.Time{"web-1": *at(9, 0)}}),
		report(t, "m2", &policyv1.PodDisruptionBudgetStatus{CurrentHealthy: 1, DesiredHealthy: 1, ExpectedPods: 1}),
		report(t, "m3", nil),
	}
	got := aggregateAs[policyv1.PodDisruptionBudgetStatus](t, object(t, "policy/v1", "PodDisruptionBudget", &policyv1.PodDisruptionBudget{}), items)
	want := policyv1.PodDisruptionBudgetStatus{CurrentHealthy: 3, DesiredHealthy: 2, ExpectedPods: 3, DisruptionsAllowed: 1,
		DisruptedPods: map[string]metav1.Time{"m1/web-1": *at(9, 0)}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PDB status (-want +got):\n%s", diff)
	}
}

func TestAggregateStatusOfHorizontalPodAutoscaler(t *testing.T) {
	t.Parallel()
	items := []workv1alpha2.AggregatedStatusItem{
		report(t, "m1", &autoscalingv2.HorizontalPodAutoscalerStatus{CurrentReplicas: 3, DesiredReplicas: 4, LastScaleTime: at(8, 0)}),
		report(t, "m2", &autoscalingv2.HorizontalPodAutoscalerStatus{CurrentReplicas: 2, DesiredReplicas: 2, LastScaleTime: at(8, 30)}),
		report(t, "m3", nil),
	}
	got := aggregateAs[autoscalingv2.HorizontalPodAutoscalerStatus](t, object(t, "autoscaling/v2", "HorizontalPodAutoscaler", &autoscalingv2.HorizontalPodAutoscaler{}), items)
	want := autoscalingv2.HorizontalPodAutoscalerStatus{CurrentReplicas: 5, DesiredReplicas: 6, LastScaleTime: at(8, 30)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("HPA status (-want +got):\n%s", diff)
	}
}

func TestAggregatePhases(t *testing.T) {
	t.Parallel()
	pod := func(p corev1.PodPhase) *corev1.PodStatus { return &corev1.PodStatus{Phase: p} }
	podCases := []struct {
		name    string
		members []*corev1.PodStatus // nil: not reported
		want    corev1.PodPhase
	}{
		{"Running everywhere is Running.", []*corev1.PodStatus{pod(corev1.PodRunning), pod(corev1.PodRunning)}, corev1.PodRunning},
		{"A failed copy fails the Pod.", []*corev1.PodStatus{pod(corev1.PodRunning), pod(corev1.PodFailed), nil}, corev1.PodFailed},
		{"A copy not reported yet is Pending.", []*corev1.PodStatus{pod(corev1.PodSucceeded), nil}, corev1.PodPending},
		{"Running before Succeeded.", []*corev1.PodStatus{pod(corev1.PodSucceeded), pod(corev1.PodRunning)}, corev1.PodRunning},
		{"No member: no phase.", nil, ""},
	}
	for _, tc := range podCases {
		var items []workv1alpha2.AggregatedStatusItem
		for i, s := range tc.members {
			items = append(items, report(t, "m"+string(rune('1'+i)), s))
		}
		got := aggregateAs[corev1.PodStatus](t, object(t, "v1", "Pod", &corev1.Pod{}), items)
		if got.Phase != tc.want {
			t.Errorf("%s: phase %q, want %q", tc.name, got.Phase, tc.want)
		}
	}
	pv := func(p corev1.PersistentVolumePhase) *corev1.PersistentVolumeStatus {
		return &corev1.PersistentVolumeStatus{Phase: p}
	}
	pvCases := []struct {
		name    string
		members []*corev1.PersistentVolumeStatus
		want    corev1.PersistentVolumePhase
	}{
		{"Bound everywhere is Bound.", []*corev1.PersistentVolumeStatus{pv(corev1.VolumeBound), pv(corev1.VolumeBound)}, corev1.VolumeBound},
		{"Available before Bound.", []*corev1.PersistentVolumeStatus{pv(corev1.VolumeBound), pv(corev1.VolumeAvailable)}, corev1.VolumeAvailable},
		{"Failed first.", []*corev1.PersistentVolumeStatus{pv(corev1.VolumeReleased), pv(corev1.VolumeFailed)}, corev1.VolumeFailed},
		{"Not reported is Pending.", []*corev1.PersistentVolumeStatus{pv(corev1.VolumeBound), nil}, corev1.VolumePending},
	}
	for _, tc := range pvCases {
		var items []workv1alpha2.AggregatedStatusItem
		for i, s := range tc.members {
			items = append(items, report(t, "m"+string(rune('1'+i)), s))
		}
		got := aggregateAs[corev1.PersistentVolumeStatus](t, object(t, "v1", "PersistentVolume", &corev1.PersistentVolume{}), items)
		if got.Phase != tc.want {
			t.Errorf("%s: phase %q, want %q", tc.name, got.Phase, tc.want)
		}
	}
}

func TestHealthOfMoreKinds(t *testing.T) {
	t.Parallel()
	ready := func(phase corev1.PodPhase, ready corev1.ConditionStatus) *corev1.Pod {
		return &corev1.Pod{Status: corev1.PodStatus{Phase: phase, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: ready}}}}
	}
	cases := []struct {
		name       string
		apiVersion string
		kind       string
		obj        any
		want       workv1alpha2.ResourceHealth
	}{
		{"An Ingress with an address", "networking.k8s.io/v1", "Ingress", &networkingv1.Ingress{Status: networkingv1.IngressStatus{
			LoadBalancer: networkingv1.IngressLoadBalancerStatus{Ingress: []networkingv1.IngressLoadBalancerIngress{{IP: "10.0.0.1"}}}}}, workv1alpha2.ResourceHealthy},
		{"An Ingress without one", "networking.k8s.io/v1", "Ingress", &networkingv1.Ingress{}, workv1alpha2.ResourceUnhealthy},
		{"A running, ready Pod", "v1", "Pod", ready(corev1.PodRunning, corev1.ConditionTrue), workv1alpha2.ResourceHealthy},
		{"A running Pod not ready", "v1", "Pod", ready(corev1.PodRunning, corev1.ConditionFalse), workv1alpha2.ResourceUnhealthy},
		{"A succeeded Pod", "v1", "Pod", &corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodSucceeded}}, workv1alpha2.ResourceHealthy},
		{"A PDB with enough healthy pods", "policy/v1", "PodDisruptionBudget", &policyv1.PodDisruptionBudget{Status: policyv1.PodDisruptionBudgetStatus{CurrentHealthy: 2, DesiredHealthy: 2}}, workv1alpha2.ResourceHealthy},
		{"A PDB short of healthy pods", "policy/v1", "PodDisruptionBudget", &policyv1.PodDisruptionBudget{Status: policyv1.PodDisruptionBudgetStatus{CurrentHealthy: 1, DesiredHealthy: 2}}, workv1alpha2.ResourceUnhealthy},
		{"A CronJob, which has no rule", "batch/v1", "CronJob", &batchv1.CronJob{}, workv1alpha2.ResourceHealthy},
	}
	for _, tc := range cases {
		if got := Health(object(t, tc.apiVersion, tc.kind, tc.obj)); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
