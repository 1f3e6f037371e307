package execution

import (
	"errors"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/cache"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/controller"
	worklisters "github.com/mco-org/mco/pkg/generated/listers/work/v1alpha1"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/workload"
)

func TestDegradedCondition(t *testing.T) {
	t.Parallel()
	web := &unstructured.Unstructured{}
	web.SetKind("Deployment")
	web.SetNamespace("shop")
	web.SetName("web")
	many := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	cases := []struct {
		name, version string
		notes         []string
		want          []string // what the message must say
	}{
		{name: "Nothing dropped is no condition."},
		{
			name: "The message names the cluster, its version, the object and the field, and what to do.", version: "v1.34.4",
			notes: []string{droppedNote(web, []workload.FieldPath{{"spec", "template", "spec", "hostnameOverride"}})},
			want: []string{"Cluster m2 (Kubernetes v1.34.4)", "Deployment shop/web (spec.template.spec.hostnameOverride)",
				"OverridePolicy", "not applied again"},
		},
		{
			name: "A cluster of unknown version is named alone.", notes: []string{"x"},
			want: []string{"Cluster m2 applied"},
		},
		{
			name: "Long lists are cut, with a count of the rest.", notes: []string{noteOf(web, many)},
			want: []string{"(a, b, c, d, e, f, g, h, and 2 more)"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := degradedCondition("m2", tc.version, tc.notes, 3)
			if len(tc.notes) == 0 {
				if c != nil {
					t.Fatalf("condition %+v for nothing dropped", c)
				}
				return
			}
			if c.Type != workv1alpha1.WorkDegraded || c.Status != metav1.ConditionTrue || c.Reason != ReasonFieldsDropped || c.ObservedGeneration != 3 {
				t.Errorf("condition %+v", c)
			}
			for _, w := range tc.want {
				if !strings.Contains(c.Message, w) {
					t.Errorf("message %q lacks %q", c.Message, w)
				}
			}
		})
	}
}

func TestSetDegraded(t *testing.T) {
	t.Parallel()
	st := &workv1alpha1.WorkStatus{}
	a := degradedCondition("m2", "", []string{"a"}, 1)
	b := degradedCondition("m2", "", []string{"b"}, 1)
	steps := []struct {
		c    *metav1.Condition
		news bool
	}{{nil, false}, {a, true}, {a, false}, {b, true}, {nil, true}, {nil, false}}
	for i, s := range steps {
		if got := setDegraded(st, s.c); got != s.news {
			t.Errorf("step %d: news %t, want %t", i, got, s.news)
		}
		if got := meta.FindStatusCondition(st.Conditions, workv1alpha1.WorkDegraded) != nil; got != (s.c != nil) {
			t.Errorf("step %d: condition present %t", i, got)
		}
	}
}

func TestFieldsUnknown(t *testing.T) {
	t.Parallel()
	csi := &unstructured.Unstructured{}
	csi.SetKind("CSIDriver")
	csi.SetName("csi.example.com")
	cases := []struct {
		name string
		err  error
		want string // the note, "" when err is not a refusal for undeclared fields
	}{
		{name: "No error is none.", err: nil},
		{name: "Other errors are left as they are.", err: errors.New("connection refused")},
		{
			name: "One undeclared field is named by its path.",
			err:  errors.New("failed to create typed patch object (/csi.example.com; storage.k8s.io/v1, Kind=CSIDriver): .spec.preventPodSchedulingIfMissing: field not declared in schema"),
			want: "CSIDriver csi.example.com (spec.preventPodSchedulingIfMissing)",
		},
		{
			name: "Several are all named, keys of list items kept.",
			err: errors.New("failed to create typed patch object (x): errors:\n  .spec.a: field not declared in schema\n" +
				`  .spec.containers[name="app"].restartPolicyRules: field not declared in schema`),
			want: `CSIDriver csi.example.com (spec.a, spec.containers[name="app"].restartPolicyRules)`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := fieldsUnknown(tc.err, csi)
			var unknown *errFieldsUnknown
			if !errors.As(got, &unknown) {
				if tc.want != "" || got != tc.err {
					t.Fatalf("fieldsUnknown = %v, want a refusal %q", got, tc.want)
				}
				return
			}
			if unknown.note != tc.want {
				t.Errorf("note %q, want %q", unknown.note, tc.want)
			}
			if msg := refusedMessage("m2", "v1.35.4", unknown); !strings.Contains(msg, "Cluster m2 (Kubernetes v1.35.4) refuses "+tc.want) {
				t.Errorf("message %q", msg)
			}
		})
	}
}

func TestClusterUpgradedRequeuesWhatTheMemberWouldNotTake(t *testing.T) {
	t.Parallel()
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	work := func(name string, conds ...metav1.Condition) {
		w := &workv1alpha1.Work{ObjectMeta: metav1.ObjectMeta{Namespace: names.ExecutionSpace("m2"), Name: name}}
		w.Status.Conditions = conds
		if err := indexer.Add(w); err != nil {
			t.Fatal(err)
		}
	}
	work("dropped", metav1.Condition{Type: workv1alpha1.WorkDegraded, Status: metav1.ConditionTrue, Reason: ReasonFieldsDropped})
	work("refused", metav1.Condition{Type: workv1alpha1.WorkApplied, Status: metav1.ConditionFalse, Reason: ReasonFieldsUnknown})
	work("fine", metav1.Condition{Type: workv1alpha1.WorkApplied, Status: metav1.ConditionTrue, Reason: ReasonAppliedSuccessful})
	work("failed", metav1.Condition{Type: workv1alpha1.WorkApplied, Status: metav1.ConditionFalse, Reason: ReasonAppliedFailed})
	cluster := func(version string) *clusterv1alpha1.Cluster {
		return &clusterv1alpha1.Cluster{ObjectMeta: metav1.ObjectMeta{Name: "m2"}, Status: clusterv1alpha1.ClusterStatus{KubernetesVersion: version}}
	}
	cases := []struct {
		name     string
		from, to string
		want     int
	}{
		{name: "The same version requeues nothing.", from: "v1.35.4", to: "v1.35.4"},
		{name: "A first report of the version requeues nothing.", from: "", to: "v1.35.4"},
		{name: "Another version requeues the Works with fields dropped or refused, and no other.", from: "v1.35.4", to: "v1.36.3", want: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := &Controller{works: worklisters.NewWorkLister(indexer), queues: map[string]*controller.Controller[string]{}}
			e.clusterUpgraded(cluster(tc.from), cluster(tc.to))
			got := 0
			if q, ok := e.queues["m2"]; ok {
				got = q.Len()
			}
			if got != tc.want {
				t.Errorf("requeued %d Works, want %d", got, tc.want)
			}
		})
	}
}
