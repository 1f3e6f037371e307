package bindingstatus

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/names"
)

// work is the Work of cluster, with an Applied condition when applied is
// "True" or "False" and the given manifest statuses.
func work(cluster, applied, message string, statuses ...workv1alpha1.ManifestStatus) *workv1alpha1.Work {
	w := &workv1alpha1.Work{ObjectMeta: metav1.ObjectMeta{Namespace: names.ExecutionSpace(cluster), Name: "web-abc"}}
	if applied != "" {
		w.Status.Conditions = []metav1.Condition{{Type: workv1alpha1.WorkApplied, Status: metav1.ConditionStatus(applied), Reason: "R", Message: message}}
	}
	w.Status.ManifestStatuses = statuses
	return w
}

func degraded(w *workv1alpha1.Work, status, message string) *workv1alpha1.Work {
	w.Status.Conditions = append(w.Status.Conditions, metav1.Condition{Type: workv1alpha1.WorkDegraded, Status: metav1.ConditionStatus(status), Reason: "FieldsDropped", Message: message})
	return w
}

func manifest(status string, health workv1alpha1.ResourceHealth) workv1alpha1.ManifestStatus {
	s := workv1alpha1.ManifestStatus{Identifier: workv1alpha1.ResourceIdentifier{Version: "v1", Kind: "Deployment", Name: "web"}, Health: health}
	if status != "" {
		s.Status = &runtime.RawExtension{Raw: []byte(status)}
	}
	return s
}

func targets(names ...string) []workv1alpha2.TargetCluster {
	out := make([]workv1alpha2.TargetCluster, len(names))
	for i, n := range names {
		out[i] = workv1alpha2.TargetCluster{Name: n, Replicas: 1}
	}
	return out
}

func TestAggregate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		targets []workv1alpha2.TargetCluster
		works   []*workv1alpha1.Work
		want    []workv1alpha2.AggregatedStatusItem
	}{
		{name: "A binding without targets has no items.", works: []*workv1alpha1.Work{work("m1", "True", "")}, want: []workv1alpha2.AggregatedStatusItem{}},
		{
			name:    "A target without a Work says so and has unknown health.",
			targets: targets("m1"),
			want:    []workv1alpha2.AggregatedStatusItem{{ClusterName: "m1", AppliedMessage: "No work for this cluster yet.", Health: workv1alpha2.ResourceUnknown}},
		},
		{
			name:    "An applied Work reports the status and health of its first manifest.",
			targets: targets("m1"),
			works:   []*workv1alpha1.Work{work("m1", "True", "ignored", manifest(`{"replicas":2}`, workv1alpha1.ResourceHealthy), manifest(`{"other":1}`, workv1alpha1.ResourceUnhealthy))},
			want: []workv1alpha2.AggregatedStatusItem{{ClusterName: "m1", Applied: true, Health: workv1alpha2.ResourceHealthy,
				Status: &runtime.RawExtension{Raw: []byte(`{"replicas":2}`)}}},
		},
		{
			name:    "A Work that failed to apply reports its condition's message.",
			targets: targets("m1"),
			works:   []*workv1alpha1.Work{work("m1", "False", "Deployment shop/web already exists in cluster m1")},
			want: []workv1alpha2.AggregatedStatusItem{{ClusterName: "m1", AppliedMessage: "Deployment shop/web already exists in cluster m1",
				Health: workv1alpha2.ResourceUnknown}},
		},
		{
			name:    "A Work without an Applied condition is not applied yet.",
			targets: targets("m1"),
			works:   []*workv1alpha1.Work{work("m1", "", "")},
			want:    []workv1alpha2.AggregatedStatusItem{{ClusterName: "m1", AppliedMessage: "Not applied yet.", Health: workv1alpha2.ResourceUnknown}},
		},
		{
			name:    "A manifest status without health keeps health unknown.",
			targets: targets("m1"),
			works:   []*workv1alpha1.Work{work("m1", "True", "", manifest(`{}`, ""))},
			want: []workv1alpha2.AggregatedStatusItem{{ClusterName: "m1", Applied: true, Health: workv1alpha2.ResourceUnknown,
				Status: &runtime.RawExtension{Raw: []byte(`{}`)}}},
		},
		{
			name:    "A manifest without status reports health alone.",
			targets: targets("m1"),
			works:   []*workv1alpha1.Work{work("m1", "True", "", manifest("", workv1alpha1.ResourceUnhealthy))},
			want:    []workv1alpha2.AggregatedStatusItem{{ClusterName: "m1", Applied: true, Health: workv1alpha2.ResourceUnhealthy}},
		},
		{
			name:    "There is one item per target, in target order, whatever the order of the Works.",
			targets: targets("m2", "m1", "m3"),
			works: []*workv1alpha1.Work{
				work("m1", "True", "", manifest(`{"replicas":1}`, workv1alpha1.ResourceHealthy)),
				work("m2", "False", "boom"),
			},
			want: []workv1alpha2.AggregatedStatusItem{
				{ClusterName: "m2", AppliedMessage: "boom", Health: workv1alpha2.ResourceUnknown},
				{ClusterName: "m1", Applied: true, Health: workv1alpha2.ResourceHealthy, Status: &runtime.RawExtension{Raw: []byte(`{"replicas":1}`)}},
				{ClusterName: "m3", AppliedMessage: "No work for this cluster yet.", Health: workv1alpha2.ResourceUnknown},
			},
		},
		{
			name:    "An applied Work whose member dropped fields says so in the applied message.",
			targets: targets("m1"),
			works:   []*workv1alpha1.Work{degraded(work("m1", "True", "", manifest("", workv1alpha1.ResourceHealthy)), "True", "Cluster m1 applied the manifest without fields ...")},
			want: []workv1alpha2.AggregatedStatusItem{{ClusterName: "m1", Applied: true, Health: workv1alpha2.ResourceHealthy,
				AppliedMessage: "Cluster m1 applied the manifest without fields ..."}},
		},
		{
			name:    "A Degraded condition that is not True says nothing.",
			targets: targets("m1"),
			works:   []*workv1alpha1.Work{degraded(work("m1", "True", ""), "False", "all kept")},
			want:    []workv1alpha2.AggregatedStatusItem{{ClusterName: "m1", Applied: true, Health: workv1alpha2.ResourceUnknown}},
		},
		{
			name:    "Works of clusters no longer targeted, or outside execution spaces, are left out.",
			targets: targets("m1"),
			works: []*workv1alpha1.Work{
				work("m1", "True", ""),
				work("gone", "True", ""),
				{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "stray"}},
			},
			want: []workv1alpha2.AggregatedStatusItem{{ClusterName: "m1", Applied: true, Health: workv1alpha2.ResourceUnknown}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := aggregate(tc.targets, tc.works)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("items differ (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAggregateDoesNotShareTheWorkStatus(t *testing.T) {
	t.Parallel()
	w := work("m1", "True", "", manifest(`{"replicas":2}`, workv1alpha1.ResourceHealthy))
	items := aggregate(targets("m1"), []*workv1alpha1.Work{w})
	items[0].Status.Raw[2] = 'X'
	if got := string(w.Status.ManifestStatuses[0].Status.Raw); got != `{"replicas":2}` {
		t.Errorf("changing the item changed the Work's status to %s", got)
	}
}

func TestFullyApplied(t *testing.T) {
	t.Parallel()
	applied := workv1alpha2.AggregatedStatusItem{ClusterName: "m1", Applied: true}
	notApplied := workv1alpha2.AggregatedStatusItem{ClusterName: "m2"}
	success := metav1.Condition{Type: workv1alpha2.FullyApplied, Status: metav1.ConditionTrue, Reason: ReasonFullyAppliedSuccess,
		Message: "All works have been successfully applied", ObservedGeneration: 7}
	failed := metav1.Condition{Type: workv1alpha2.FullyApplied, Status: metav1.ConditionFalse, Reason: ReasonFullyAppliedFailed,
		Message: "Failed to apply all works, see status.aggregatedStatus for details", ObservedGeneration: 7}
	noTargets := failed
	noTargets.Message = "The binding has no target cluster."
	cases := []struct {
		name  string
		items []workv1alpha2.AggregatedStatusItem
		want  metav1.Condition
	}{
		{name: "A binding without targets is not fully applied.", want: noTargets},
		{name: "A binding applied in every target is fully applied.", items: []workv1alpha2.AggregatedStatusItem{applied, applied}, want: success},
		{name: "A binding applied in some targets only is not fully applied.", items: []workv1alpha2.AggregatedStatusItem{applied, notApplied}, want: failed},
		{name: "A binding applied nowhere is not fully applied.", items: []workv1alpha2.AggregatedStatusItem{notApplied}, want: failed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, fullyApplied(tc.items, 7)); diff != "" {
				t.Errorf("condition differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSettling(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	applied := func(cluster string) *workv1alpha1.Work {
		w := &workv1alpha1.Work{}
		w.Namespace = names.ExecutionSpace(cluster)
		w.Status.Conditions = []metav1.Condition{{Type: workv1alpha1.WorkApplied, Status: metav1.ConditionFalse}}
		return w
	}
	untried := func(cluster string) *workv1alpha1.Work {
		w := &workv1alpha1.Work{}
		w.Namespace = names.ExecutionSpace(cluster)
		return w
	}
	two := []workv1alpha2.TargetCluster{{Name: "m1"}, {Name: "m2"}}
	cases := []struct {
		name     string
		works    []*workv1alpha1.Work
		placedAt time.Time
		want     time.Duration
	}{
		{"Every Work tried (even failed) means no wait.", []*workv1alpha1.Work{applied("m1"), applied("m2")}, now, 0},
		{"A missing Work right after placement waits out the settle time.", []*workv1alpha1.Work{applied("m1")}, now.Add(-4 * time.Second), settleFor - 4*time.Second},
		{"A Work not yet tried waits for its try, however long the queue.", []*workv1alpha1.Work{applied("m1"), untried("m2")}, now.Add(-time.Minute), untriedWait - time.Minute},
		{"Long after placement a missing Work no longer holds the status back.", []*workv1alpha1.Work{applied("m1")}, now.Add(-time.Minute), 0},
		{"Past the fallback an untried Work no longer holds it back either.", []*workv1alpha1.Work{untried("m1"), untried("m2")}, now.Add(-10 * time.Minute), 0},
	}
	for _, c := range cases {
		if got := settling(two, c.works, c.placedAt, now); got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}

func TestUrgent(t *testing.T) {
	t.Parallel()
	item := func(cluster string, applied bool, health workv1alpha2.ResourceHealth) workv1alpha2.AggregatedStatusItem {
		return workv1alpha2.AggregatedStatusItem{ClusterName: cluster, Applied: applied, Health: health}
	}
	healthy, unhealthy := workv1alpha2.ResourceHealthy, workv1alpha2.ResourceUnhealthy
	cases := []struct {
		name     string
		old, new []workv1alpha2.AggregatedStatusItem
		want     bool
	}{
		{"clusters on their way wait", nil,
			[]workv1alpha2.AggregatedStatusItem{item("m1", true, healthy), item("m2", true, unhealthy)}, false},
		{"every cluster healthy is written at once", []workv1alpha2.AggregatedStatusItem{item("m1", true, healthy), item("m2", true, unhealthy)},
			[]workv1alpha2.AggregatedStatusItem{item("m1", true, healthy), item("m2", true, healthy)}, true},
		{"a failed apply is written at once", nil,
			[]workv1alpha2.AggregatedStatusItem{item("m1", true, healthy), item("m2", false, workv1alpha2.ResourceUnknown)}, true},
		{"a cluster that breaks is written at once", []workv1alpha2.AggregatedStatusItem{item("m1", true, healthy), item("m2", true, unhealthy)},
			[]workv1alpha2.AggregatedStatusItem{item("m1", true, unhealthy), item("m2", true, unhealthy)}, true},
		{"no targets is news", []workv1alpha2.AggregatedStatusItem{item("m1", true, unhealthy)}, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := urgent(c.old, c.new); got != c.want {
				t.Errorf("urgent = %t, want %t", got, c.want)
			}
		})
	}
}

func TestTemplateAside(t *testing.T) {
	t.Parallel()
	item := func(cluster string, applied bool, health workv1alpha2.ResourceHealth) workv1alpha2.AggregatedStatusItem {
		return workv1alpha2.AggregatedStatusItem{ClusterName: cluster, Applied: applied, Health: health}
	}
	onTheWay := []workv1alpha2.AggregatedStatusItem{item("m1", true, workv1alpha2.ResourceUnhealthy), item("m2", true, workv1alpha2.ResourceHealthy)}
	cond := func(typ, status, reason string) any {
		return map[string]any{"type": typ, "status": status, "reason": reason}
	}
	st := func(fields map[string]any, conds ...any) map[string]any {
		out := map[string]any{}
		for k, v := range fields {
			out[k] = v
		}
		if len(conds) > 0 {
			out["conditions"] = conds
		}
		return out
	}
	starting := st(nil, cond("Available", "False", "MinimumReplicasUnavailable"), cond("Progressing", "True", "ReplicaSetUpdated"))
	counted := map[string]any{"replicas": int64(3), "unavailableReplicas": int64(3)}
	cases := []struct {
		name        string
		items       []workv1alpha2.AggregatedStatusItem
		old, status any
		want        bool
	}{
		{"conditions appearing on the way are an aside", onTheWay, nil, starting, true},
		{"conditions reworded on the way are an aside", onTheWay, st(counted, cond("Progressing", "True", "NewReplicaSetCreated")), st(counted, cond("Progressing", "True", "ReplicaSetUpdated")), true},
		{"a counter moving is written", onTheWay, st(nil, cond("Progressing", "True", "ReplicaSetUpdated")), st(counted, cond("Progressing", "True", "ReplicaSetUpdated")), false},
		{"the observed generation moving is written", onTheWay, starting, st(map[string]any{"observedGeneration": int64(2)}, cond("Progressing", "True", "ReplicaSetUpdated")), false},
		{"a Progressing condition turned False is written", onTheWay, starting, st(nil, cond("Progressing", "False", "ProgressDeadlineExceeded")), false},
		{"every cluster healthy is written", []workv1alpha2.AggregatedStatusItem{item("m1", true, workv1alpha2.ResourceHealthy)}, nil, starting, false},
		{"a failed apply is written", []workv1alpha2.AggregatedStatusItem{item("m1", false, workv1alpha2.ResourceUnknown)}, nil, starting, false},
		{"no status at all is written", onTheWay, starting, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := templateAside(c.items, c.old, c.status); got != c.want {
				t.Errorf("templateAside = %t, want %t", got, c.want)
			}
		})
	}
}
