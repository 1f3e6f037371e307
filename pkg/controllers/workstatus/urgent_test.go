package workstatus

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/controller"
)

func TestUrgent(t *testing.T) {
	t.Parallel()
	status := func(applied, available metav1.ConditionStatus) *workv1alpha1.WorkStatus {
		st := &workv1alpha1.WorkStatus{}
		if applied != "" {
			st.Conditions = append(st.Conditions, metav1.Condition{Type: workv1alpha1.WorkApplied, Status: applied})
		}
		if available != "" {
			st.Conditions = append(st.Conditions, metav1.Condition{Type: workv1alpha1.WorkAvailable, Status: available})
		}
		return st
	}
	none := status("", "")
	dropped := func(st *workv1alpha1.WorkStatus, msg string) *workv1alpha1.WorkStatus {
		st.Conditions = append(st.Conditions, metav1.Condition{Type: workv1alpha1.WorkDegraded, Status: metav1.ConditionTrue, Message: msg})
		return st
	}
	cases := []struct {
		name     string
		old, new *workv1alpha1.WorkStatus
		want     bool
	}{
		{"a first apply on its way waits", none, status(metav1.ConditionTrue, metav1.ConditionFalse), false},
		{"progress on the way waits", status(metav1.ConditionTrue, metav1.ConditionFalse), status(metav1.ConditionTrue, metav1.ConditionFalse), false},
		{"becoming Available is written at once", status(metav1.ConditionTrue, metav1.ConditionFalse), status(metav1.ConditionTrue, metav1.ConditionTrue), true},
		{"a first apply already healthy is written at once", none, status(metav1.ConditionTrue, metav1.ConditionTrue), true},
		{"a failed apply is written at once", none, status(metav1.ConditionFalse, ""), true},
		{"a member's dropping fields is written at once", status(metav1.ConditionTrue, metav1.ConditionFalse), dropped(status(metav1.ConditionTrue, metav1.ConditionFalse), "a"), true},
		{"the same dropped fields on the way wait", dropped(status(metav1.ConditionTrue, metav1.ConditionFalse), "a"), dropped(status(metav1.ConditionTrue, metav1.ConditionFalse), "a"), false},
		{"fields no longer dropped are written at once", dropped(status(metav1.ConditionTrue, metav1.ConditionFalse), "a"), status(metav1.ConditionTrue, metav1.ConditionFalse), true},
		{"breaking is written at once", status(metav1.ConditionTrue, metav1.ConditionTrue), status(metav1.ConditionTrue, metav1.ConditionFalse), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := Urgent(c.old, c.new); got != c.want {
				t.Errorf("Urgent = %t, want %t", got, c.want)
			}
		})
	}
}

func TestClassify(t *testing.T) {
	t.Parallel()
	onTheWay := []metav1.Condition{
		{Type: workv1alpha1.WorkApplied, Status: metav1.ConditionTrue, Reason: "AppliedSuccessful"},
		{Type: workv1alpha1.WorkAvailable, Status: metav1.ConditionFalse, Reason: "ResourcesNotAvailable", Message: "Deployment web is Unhealthy"},
	}
	available := []metav1.Condition{
		{Type: workv1alpha1.WorkApplied, Status: metav1.ConditionTrue, Reason: "AppliedSuccessful"},
		{Type: workv1alpha1.WorkAvailable, Status: metav1.ConditionTrue, Reason: "ResourcesAvailable"},
	}
	st := func(conds []metav1.Condition, health workv1alpha1.ResourceHealth, reflected string) *workv1alpha1.WorkStatus {
		s := &workv1alpha1.WorkStatus{Conditions: conds}
		ms := workv1alpha1.ManifestStatus{Identifier: workv1alpha1.ResourceIdentifier{Group: "apps", Version: "v1", Kind: "Deployment", Name: "web"}, Health: health}
		if reflected != "" {
			ms.Status = &runtime.RawExtension{Raw: []byte(reflected)}
		}
		s.ManifestStatuses = []workv1alpha1.ManifestStatus{ms}
		return s
	}
	empty := `{"generation":1,"resourceTemplateGeneration":2}`
	progressing := `{"conditions":[{"type":"Progressing","status":"True","reason":"NewReplicaSetCreated"}],"generation":1,"resourceTemplateGeneration":2}`
	reworded := `{"conditions":[{"type":"Progressing","status":"True","reason":"ReplicaSetUpdated"}],"generation":1,"resourceTemplateGeneration":2}`
	observed := `{"conditions":[{"type":"Progressing","status":"True","reason":"NewReplicaSetCreated"}],"generation":1,"observedGeneration":1,"resourceTemplateGeneration":2}`
	counted := `{"conditions":[{"type":"Progressing","status":"True","reason":"ReplicaSetUpdated"}],"generation":1,"replicas":3,"resourceTemplateGeneration":2}`
	later := func(c []metav1.Condition) []metav1.Condition {
		out := append([]metav1.Condition(nil), c...)
		for i := range out {
			out[i].LastTransitionTime = metav1.Unix(1000, 0)
		}
		return out
	}
	cases := []struct {
		name     string
		old, new *workv1alpha1.WorkStatus
		want     controller.Change
	}{
		{"a member's condition appearing is an aside", st(onTheWay, workv1alpha1.ResourceUnhealthy, empty), st(onTheWay, workv1alpha1.ResourceUnhealthy, progressing), controller.Aside},
		{"a member's condition reworded is an aside", st(onTheWay, workv1alpha1.ResourceUnhealthy, progressing), st(onTheWay, workv1alpha1.ResourceUnhealthy, reworded), controller.Aside},
		{"times of the Work's own conditions do not count", st(onTheWay, workv1alpha1.ResourceUnhealthy, empty), st(later(onTheWay), workv1alpha1.ResourceUnhealthy, progressing), controller.Aside},
		{"the member's controller observing the generation is an aside", st(onTheWay, workv1alpha1.ResourceUnhealthy, empty), st(onTheWay, workv1alpha1.ResourceUnhealthy, observed), controller.Aside},
		{"a counter moving is a step on the way", st(onTheWay, workv1alpha1.ResourceUnhealthy, reworded), st(onTheWay, workv1alpha1.ResourceUnhealthy, counted), controller.InPassing},
		{"a first reflected status is a step on the way", st(onTheWay, workv1alpha1.ResourceUnknown, ""), st(onTheWay, workv1alpha1.ResourceUnknown, empty), controller.InPassing},
		{"health moving is a step on the way", st(onTheWay, workv1alpha1.ResourceUnknown, empty), st(onTheWay, workv1alpha1.ResourceUnhealthy, empty), controller.InPassing},
		{"the first apply alone is a detail", &workv1alpha1.WorkStatus{}, st(onTheWay, workv1alpha1.ResourceUnhealthy, empty), controller.Detail},
		{"the first apply without a reflected status is a detail", &workv1alpha1.WorkStatus{}, st(onTheWay, workv1alpha1.ResourceUnknown, ""), controller.Detail},
		{"the first apply with the member's first step is a step on the way", &workv1alpha1.WorkStatus{}, st(onTheWay, workv1alpha1.ResourceUnhealthy, counted), controller.InPassing},
		{"the first apply with a member's condition is a detail", &workv1alpha1.WorkStatus{}, st(onTheWay, workv1alpha1.ResourceUnhealthy, observed), controller.Detail},
		{"the first apply with a status that is no object is a step on the way", &workv1alpha1.WorkStatus{}, st(onTheWay, workv1alpha1.ResourceUnhealthy, `"a"`), controller.InPassing},
		{"the first apply healthy is settled", &workv1alpha1.WorkStatus{}, st(available, workv1alpha1.ResourceHealthy, empty), controller.Settled},
		{"a status that is no object is compared whole", st(onTheWay, workv1alpha1.ResourceUnhealthy, `"a"`), st(onTheWay, workv1alpha1.ResourceUnhealthy, `"b"`), controller.InPassing},
		{"an outcome is settled", st(onTheWay, workv1alpha1.ResourceUnhealthy, progressing), &workv1alpha1.WorkStatus{Conditions: []metav1.Condition{{Type: workv1alpha1.WorkApplied, Status: metav1.ConditionFalse}}}, controller.Settled},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := Classify(c.old, c.new); got != c.want {
				t.Errorf("Classify = %d, want %d", got, c.want)
			}
		})
	}
}
