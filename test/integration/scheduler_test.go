package integration

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/test/integration/framework"
)

// TestSchedulerLoop runs mco-scheduler against mco-apiserver: it schedules a
// new binding, reschedules when replicas change, keeps an existing binding
// on a cluster tainted NoSchedule while a new one avoids it, and counts its
// attempts in /metrics.
func TestSchedulerLoop(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	client, err := mcoclient.NewForConfig(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, name := range []string{"member1", "member2", "member3"} {
		createReadyCluster(t, client, name, "64", "256Gi")
	}
	sched := framework.StartScheduler(t, s)

	rb := newBinding("web", 6)
	if _, err := client.WorkV1alpha2().ResourceBindings("default").Create(ctx, rb, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	got := waitScheduled(t, client, "web", func(b *workv1alpha2.ResourceBinding) bool { return sum(b.Spec.Clusters) == 6 })
	if len(got.Spec.Clusters) != 3 {
		t.Errorf("6 replicas over 3 equal clusters: %v", got.Spec.Clusters)
	}

	// Scale: replicas 6 -> 9 is rescheduled.
	got.Spec.Replicas = 9
	if _, err := client.WorkV1alpha2().ResourceBindings("default").Update(ctx, got, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitScheduled(t, client, "web", func(b *workv1alpha2.ResourceBinding) bool { return sum(b.Spec.Clusters) == 9 })

	// Taint member1: web stays there, a new binding avoids it.
	c, err := client.ClusterV1alpha1().Clusters().Get(ctx, "member1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c.Spec.Taints = []corev1.Taint{{Key: "maintenance", Effect: corev1.TaintEffectNoSchedule}}
	if _, err := client.ClusterV1alpha1().Clusters().Update(ctx, c, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	// The taint and a new binding reach the scheduler on two watches, in
	// either order: a binding that comes first may be placed on member1
	// (and stays there, as web does). Each such try is deleted and another
	// binding created, until one made after the taint was seen avoids it.
	for try := 0; ; try++ {
		if try == 20 {
			t.Fatalf("20 new bindings in a row placed on the tainted cluster")
		}
		name := fmt.Sprintf("api-%d", try)
		if _, err := client.WorkV1alpha2().ResourceBindings("default").Create(ctx, newBinding(name, 4), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		api := waitScheduled(t, client, name, func(b *workv1alpha2.ResourceBinding) bool { return sum(b.Spec.Clusters) == 4 })
		if !hasCluster(api.Spec.Clusters, "member1") {
			break
		}
		if err := client.WorkV1alpha2().ResourceBindings("default").Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(time.Second) // let the taint event reach the scheduler
	web, err := client.WorkV1alpha2().ResourceBindings("default").Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !hasCluster(web.Spec.Clusters, "member1") {
		t.Errorf("existing binding left the NoSchedule-tainted cluster: %v", web.Spec.Clusters)
	}

	// An unschedulable binding says why.
	bad := newBinding("nowhere", 2)
	bad.Spec.Placement.ClusterAffinity = &policyv1alpha1.ClusterAffinity{ClusterNames: []string{"member9"}}
	if _, err := client.WorkV1alpha2().ResourceBindings("default").Create(ctx, bad, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	var cond *metav1.Condition
	err = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		b, err := client.WorkV1alpha2().ResourceBindings("default").Get(ctx, "nowhere", metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		cond = meta.FindStatusCondition(b.Status.Conditions, workv1alpha2.Scheduled)
		return cond != nil, nil
	})
	if err != nil || cond.Status != metav1.ConditionFalse || cond.Reason != workv1alpha2.BindingReasonNoClusterFit ||
		!strings.Contains(cond.Message, "0/3 clusters are available") {
		t.Errorf("unschedulable binding condition: %+v (%v)", cond, err)
	}

	// A binding whose scheduling is suspended (a queueing system holds it)
	// is left alone, even with a probe created after it scheduled, until
	// the suspension is cleared.
	held := newBinding("held", 2)
	held.Spec.Suspension = &workv1alpha2.Suspension{Scheduling: ptr.To(true)}
	if _, err := client.WorkV1alpha2().ResourceBindings("default").Create(ctx, held, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.WorkV1alpha2().ResourceBindings("default").Create(ctx, newBinding("probe", 1), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitScheduled(t, client, "probe", func(b *workv1alpha2.ResourceBinding) bool { return sum(b.Spec.Clusters) == 1 })
	held, err = client.WorkV1alpha2().ResourceBindings("default").Get(ctx, "held", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(held.Spec.Clusters) != 0 || held.Status.SchedulerObservedGeneration != 0 || len(held.Status.Conditions) != 0 {
		t.Errorf("a binding with scheduling suspended was scheduled: %v %+v", held.Spec.Clusters, held.Status)
	}
	held.Spec.Suspension.Scheduling = nil
	if _, err := client.WorkV1alpha2().ResourceBindings("default").Update(ctx, held, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitScheduled(t, client, "held", func(b *workv1alpha2.ResourceBinding) bool { return sum(b.Spec.Clusters) == 2 })

	// The scheduler runs under a leader lease.
	lease := s.MustKubectl(t, "", "get", "lease", "-n", "kube-system", "mco-scheduler", "-o", "jsonpath={.spec.holderIdentity}")
	if lease == "" {
		t.Errorf("no holder on the mco-scheduler lease")
	}

	// Gauges are refreshed every second.
	var body string
	_ = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		body = httpGet(t, sched.MetricsURL())
		return strings.Contains(body, `scheduler_pending_bindings{queue="unschedulable"} 1`), nil
	})
	for _, want := range []string{
		`karmada_scheduler_schedule_attempts_total{result="scheduled"`,
		"karmada_scheduler_e2e_scheduling_duration_seconds_bucket",
		`karmada_scheduler_scheduling_algorithm_duration_seconds_bucket{schedule_step="Filter"`,
		"karmada_scheduler_framework_extension_point_duration_seconds_bucket",
		`scheduler_pending_bindings{queue="unschedulable"} 1`,
		"mco_build_info",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

func createReadyCluster(t *testing.T, client mcoclient.Interface, name, cpu, memory string) {
	t.Helper()
	ctx := context.Background()
	c := &clusterv1alpha1.Cluster{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       clusterv1alpha1.ClusterSpec{SyncMode: clusterv1alpha1.Push, APIEndpoint: "https://127.0.0.1:1"},
	}
	created, err := client.ClusterV1alpha1().Clusters().Create(ctx, c, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	alloc := corev1.ResourceList{
		corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(memory),
		corev1.ResourcePods: resource.MustParse("110"),
	}
	created.Status = clusterv1alpha1.ClusterStatus{
		KubernetesVersion: "v1.37.2",
		Conditions: []metav1.Condition{{Type: clusterv1alpha1.ClusterConditionReady, Status: metav1.ConditionTrue,
			Reason: "ClusterReady", Message: "ok", LastTransitionTime: metav1.Now()}},
		APIEnablements:  []clusterv1alpha1.APIEnablement{{GroupVersion: "apps/v1", Resources: []clusterv1alpha1.APIResource{{Name: "deployments", Kind: "Deployment"}}}},
		ResourceSummary: &clusterv1alpha1.ResourceSummary{Allocatable: alloc},
	}
	if _, err := client.ClusterV1alpha1().Clusters().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

func newBinding(name string, replicas int32) *workv1alpha2.ResourceBinding {
	return &workv1alpha2.ResourceBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: workv1alpha2.ResourceBindingSpec{
			Resource: workv1alpha2.ObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: name},
			Replicas: replicas,
			ReplicaRequirements: &workv1alpha2.ReplicaRequirements{ResourceRequest: corev1.ResourceList{
				corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")}},
			Placement: &policyv1alpha1.Placement{ReplicaScheduling: &policyv1alpha1.ReplicaSchedulingStrategy{
				ReplicaSchedulingType:     policyv1alpha1.ReplicaSchedulingTypeDivided,
				ReplicaDivisionPreference: policyv1alpha1.ReplicaDivisionPreferenceWeighted,
				WeightPreference:          &policyv1alpha1.ClusterPreferences{DynamicWeight: policyv1alpha1.DynamicWeightByAvailableReplicas},
			}},
		},
	}
}

func waitScheduled(t *testing.T, client mcoclient.Interface, name string, ok func(*workv1alpha2.ResourceBinding) bool) *workv1alpha2.ResourceBinding {
	t.Helper()
	var got *workv1alpha2.ResourceBinding
	err := wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		b, err := client.WorkV1alpha2().ResourceBindings("default").Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		got = b
		return meta.IsStatusConditionTrue(b.Status.Conditions, workv1alpha2.Scheduled) && ok(b), nil
	})
	if err != nil {
		t.Fatalf("binding %s not scheduled as expected: spec.clusters=%v status=%+v", name, got.Spec.Clusters, got.Status)
	}
	return got
}

func sum(tcs []workv1alpha2.TargetCluster) int32 {
	var n int32
	for _, tc := range tcs {
		n += tc.Replicas
	}
	return n
}

func hasCluster(tcs []workv1alpha2.TargetCluster, name string) bool {
	for _, tc := range tcs {
		if tc.Name == name {
			return true
		}
	}
	return false
}

func httpGet(t *testing.T, url string) string {
	t.Helper()
	body, err := httpGetErr(url)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

func httpGetErr(url string) (string, error) {
	resp, err := http.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}
