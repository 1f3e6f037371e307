package execution

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
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
			notes: []string{droppedNote(web, []string{"spec.template.spec.hostnameOverride"})},
			want: []string{"Cluster m2 (Kubernetes v1.34.4)", "Deployment shop/web (spec.template.spec.hostnameOverride)",
				"OverridePolicy", "not applied again"},
		},
		{
			name: "A cluster of unknown version is named alone.", notes: []string{"x"},
			want: []string{"Cluster m2 applied"},
		},
		{
			name: "Long lists are cut, with a count of the rest.", notes: []string{droppedNote(web, many)},
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
