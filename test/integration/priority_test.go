package integration

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/test/integration/framework"
)

// TestSchedulePriorityResolved: the detector puts the value of the
// PriorityClass a policy's schedulePriority names into the template's
// ResourceBinding; a class that does not exist holds the template back
// with a Warning naming it, until the class is created.
func TestSchedulePriorityResolved(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	client, err := mcoclient.NewForConfig(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	framework.StartControllerManager(t, s, "--controllers=detector")
	s.MustKubectl(t, `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: urgent}
value: 1000
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: urgent, namespace: default}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: urgent}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
  schedulePriority: {priorityClassSource: KubePriorityClass, priorityClassName: urgent}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: later, namespace: default}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: later}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
  schedulePriority: {priorityClassSource: KubePriorityClass, priorityClassName: not-yet}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: urgent, namespace: default}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: later, namespace: default}
`, "apply", "-f", "-")
	priorityOf := func(name string) (int32, bool) {
		b, err := client.WorkV1alpha2().ResourceBindings("default").Get(context.Background(), name+"-configmap", metav1.GetOptions{})
		if err != nil || b.Spec.SchedulePriority == nil {
			return 0, err == nil
		}
		return b.Spec.SchedulePriority.Priority, true
	}
	waitFor(t, 30*time.Second, "the binding of urgent carries priority 1000", func() bool { p, _ := priorityOf("urgent"); return p == 1000 })
	waitFor(t, 30*time.Second, "a Warning names the missing PriorityClass", func() bool {
		out, _, _ := s.Kubectl(t, "", "get", "events", "-n", "default", "--field-selector", "involvedObject.name=later,reason=ApplyPolicyFailed", "-o", "jsonpath={.items[*].message}")
		return strings.Contains(out, `PriorityClass "not-yet"`)
	})
	if _, exists := priorityOf("later"); exists {
		t.Errorf("a binding was made for a template whose PriorityClass does not exist")
	}
	s.MustKubectl(t, "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: not-yet}\nvalue: 5\n", "apply", "-f", "-")
	waitFor(t, time.Minute, "the binding of later, with priority 5, once its class exists", func() bool { p, _ := priorityOf("later"); return p == 5 })
}

// TestSchedulerQueueByPriority: bindings queued while no scheduler runs
// are scheduled higher priority first: one of priority 1000 created after
// 50 of priority 0 is scheduled before them. Its last write (the status,
// in the pass its own spec write queues) may come after the first low
// ones', never after more than a few: FIFO would make it the last.
func TestSchedulerQueueByPriority(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	client, err := mcoclient.NewForConfig(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, name := range []string{"member1", "member2"} {
		createReadyCluster(t, client, name, "64", "256Gi")
	}
	const lows = 50
	for i := 0; i < lows; i++ {
		if _, err := client.WorkV1alpha2().ResourceBindings("default").Create(ctx, newBinding("low-"+strconv.Itoa(i), 2), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	high := newBinding("high", 2)
	high.Spec.SchedulePriority = &workv1alpha2.SchedulePriority{Priority: 1000}
	if _, err := client.WorkV1alpha2().ResourceBindings("default").Create(ctx, high, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	framework.StartScheduler(t, s, "--workers=1")
	var list *workv1alpha2.ResourceBindingList
	err = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		list, err = client.WorkV1alpha2().ResourceBindings("default").List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, nil
		}
		for _, b := range list.Items {
			if b.Status.SchedulerObservedGeneration != b.Generation || len(b.Spec.Clusters) == 0 {
				return false, nil
			}
		}
		return len(list.Items) == lows+1, nil
	})
	if err != nil {
		t.Fatalf("not every binding scheduled: %v", err)
	}
	// The order of the scheduler's writes is the order of resourceVersions
	// (nothing else writes the bindings here).
	type written struct {
		name string
		rv   int
	}
	var order []written
	for _, b := range list.Items {
		rv, _ := strconv.Atoi(b.ResourceVersion)
		order = append(order, written{b.Name, rv})
	}
	sort.Slice(order, func(i, j int) bool { return order[i].rv < order[j].rv })
	for i, w := range order {
		if w.name == "high" && i >= 4 {
			t.Errorf("the binding of priority 1000 was last written %d-th of %d, after %v", i+1, len(order), order[:i])
		}
	}
}

func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	if err := wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, timeout, true, func(context.Context) (bool, error) {
		return cond(), nil
	}); err != nil {
		t.Fatalf("%s: not within %s", what, timeout)
	}
}
