package workstatus

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/shared"
	"github.com/mco-org/mco/pkg/interpreter"
)

// Failures are the interpreter's failures on one member object: its
// status, and its health.
type Failures struct {
	Status, Health error
}

// Report records them on binding k (scripts' failures only; see
// shared.ScriptReporter), and their recovery.
func (f Failures) Report(ctx context.Context, r *shared.ScriptReporter, k binding.Key, gvk schema.GroupVersionKind) error {
	return errors.Join(
		r.Report(ctx, k, gvk, configv1alpha1.InterpreterOperationInterpretStatus, f.Status),
		r.Report(ctx, k, gvk, configv1alpha1.InterpreterOperationInterpretHealth, f.Health))
}

// ManifestStatus describes one member object (nil: not there) applied
// from manifest: its reflected status and health. What cannot be read
// stays out (status) or Unknown (health), and is among the failures. The
// health of a member object that predates the manifest (a cache behind
// the apply) is Unknown: it would judge what ran before.
func ManifestStatus(ctx context.Context, interp *interpreter.Interpreter, obj, manifest *unstructured.Unstructured, id workv1alpha1.ResourceIdentifier) (workv1alpha1.ManifestStatus, Failures) {
	st := workv1alpha1.ManifestStatus{Identifier: id, Health: workv1alpha1.ResourceUnknown}
	if obj == nil {
		return st, Failures{}
	}
	var f Failures
	if Predates(obj, manifest) {
		st.Status, f.Status = interp.ReflectStatus(ctx, obj)
		return st, f
	}
	var health workv1alpha2.ResourceHealth
	st.Status, f.Status, health, f.Health = interp.Observe(ctx, obj)
	st.Health = workv1alpha1.ResourceHealth(health)
	return st, f
}

// renderedFrom are the annotations that say what a manifest was rendered
// from: the template's generation and, in a staged rollout, its revision.
var renderedFrom = []string{workv1alpha1.ResourceTemplateGenerationAnnotation, rolloutv1alpha1.RevisionAnnotation}

// Predates tells whether a member object was applied from an earlier
// manifest than this one.
func Predates(obj, manifest *unstructured.Unstructured) bool {
	have, want := obj.GetAnnotations(), manifest.GetAnnotations()
	for _, k := range renderedFrom {
		if have[k] != want[k] {
			return true
		}
	}
	return false
}

// AvailableCondition is True when every manifest is healthy in the member.
func AvailableCondition(statuses []workv1alpha1.ManifestStatus, generation int64) metav1.Condition {
	var notHealthy []string
	for _, s := range statuses {
		if s.Health != workv1alpha1.ResourceHealth(workv1alpha2.ResourceHealthy) {
			notHealthy = append(notHealthy, fmt.Sprintf("%s %s is %s", s.Identifier.Kind, s.Identifier.Name, s.Health))
		}
	}
	c := metav1.Condition{Type: workv1alpha1.WorkAvailable, Status: metav1.ConditionTrue, Reason: "ResourcesAvailable",
		Message: "Every manifest is healthy in the member cluster.", ObservedGeneration: generation}
	if len(notHealthy) > 0 {
		c.Status, c.Reason, c.Message = metav1.ConditionFalse, "ResourcesNotAvailable", strings.Join(notHealthy, "; ")
	}
	return c
}

// Urgent tells whether a Work's new status is news to write at once
// rather than a step on the way to coalesce: the apply failed or was held
// back, every manifest is healthy in the member, or the Work stopped being
// Available (a workload that breaks is reported without delay; failover
// counts from it), or the member's dropping of fields changed.
func Urgent(old, st *workv1alpha1.WorkStatus) bool {
	return !meta.IsStatusConditionTrue(st.Conditions, workv1alpha1.WorkApplied) ||
		meta.IsStatusConditionTrue(st.Conditions, workv1alpha1.WorkAvailable) ||
		meta.IsStatusConditionTrue(old.Conditions, workv1alpha1.WorkAvailable) ||
		degradedMessage(old) != degradedMessage(st)
}

// degradedMessage is what a Work's Degraded condition says, "" without one.
func degradedMessage(st *workv1alpha1.WorkStatus) string {
	if c := meta.FindStatusCondition(st.Conditions, workv1alpha1.WorkDegraded); c != nil {
		return string(c.Status) + c.Message
	}
	return ""
}

// Classify tells how a Work's new status is to be written: at once when it
// is Urgent; as an aside when all that moved are the conditions a member
// reports on its own objects and the generation its controller observed
// (a Deployment's Progressing reworded, a condition Karmada does not
// reflect at all, the member's controller taking up a new spec, while its
// counters, its health and the Work's own conditions stand still);
// otherwise as a step on the way. A Work that is Available is Urgent, so a
// settled workload's observed generation is never held back.
//
// A Work's first successful apply, while the member has reported nothing
// of the workload but details (the apply's answer, its own conditions, the
// generation its controller observed), is a detail: the outcome (Available,
// or a failure) and the member's first real step are what users wait for,
// and either one brings the Applied condition with it; without them, the
// Applied condition (a binding's FullyApplied) shows within the longest
// window. A member slow to start a burst of workloads (minutes for a
// thousand Deployments at kube-controller-manager's default rate)
// otherwise has Applied written on its own first, then each rewording of
// its conditions, writes that say nothing of the workloads.
func Classify(old, st *workv1alpha1.WorkStatus) controller.Change {
	switch {
	case Urgent(old, st):
		return controller.Settled
	case firstApply(old, st):
		return controller.Detail
	case detailOnly(old, st):
		return controller.Aside
	}
	return controller.InPassing
}

// firstApply tells whether st is a Work's first successful apply (Urgent
// has ruled out failures and outcomes) and nothing more: no Applied
// condition before, and no manifest whose member status says more than
// the generations and details.
func firstApply(old, st *workv1alpha1.WorkStatus) bool {
	if meta.FindStatusCondition(old.Conditions, workv1alpha1.WorkApplied) != nil || len(old.ManifestStatuses) > 0 {
		return false
	}
	for _, ms := range st.ManifestStatuses {
		if !onlyDetails(ms.Status) {
			return false
		}
	}
	return true
}

// onlyDetails tells whether a reflected status holds nothing but the
// generations mco adds to every one and detailFields.
func onlyDetails(raw *runtime.RawExtension) bool {
	if raw == nil || len(raw.Raw) == 0 {
		return true
	}
	var m map[string]any
	if json.Unmarshal(raw.Raw, &m) != nil {
		return false
	}
	for k := range m {
		if k != "generation" && k != "resourceTemplateGeneration" && !slices.Contains(detailFields, k) {
			return false
		}
	}
	return true
}

// detailOnly tells whether st differs from old in the members' own
// conditions and observed generations alone.
func detailOnly(old, st *workv1alpha1.WorkStatus) bool {
	if !sameConditions(old.Conditions, st.Conditions) || len(old.ManifestStatuses) != len(st.ManifestStatuses) {
		return false
	}
	for i, n := range st.ManifestStatuses {
		o := old.ManifestStatuses[i]
		if o.Identifier != n.Identifier || o.Health != n.Health || !sameApartFromDetails(o.Status, n.Status) {
			return false
		}
	}
	return true
}

// sameConditions compares what two lists of conditions say, times apart.
func sameConditions(a, b []metav1.Condition) bool {
	if len(a) != len(b) {
		return false
	}
	for _, c := range a {
		d := meta.FindStatusCondition(b, c.Type)
		if d == nil || d.Status != c.Status || d.Reason != c.Reason || d.Message != c.Message || d.ObservedGeneration != c.ObservedGeneration {
			return false
		}
	}
	return true
}

// detailFields are the top-level fields of a reflected status whose
// changes alone are details.
var detailFields = []string{"conditions", "observedGeneration"}

// sameApartFromDetails compares two reflected statuses without their
// detailFields.
func sameApartFromDetails(a, b *runtime.RawExtension) bool {
	if a == nil || b == nil {
		return a == b
	}
	var x, y map[string]any
	if json.Unmarshal(a.Raw, &x) != nil || json.Unmarshal(b.Raw, &y) != nil {
		return bytes.Equal(a.Raw, b.Raw)
	}
	for _, f := range detailFields {
		delete(x, f)
		delete(y, f)
	}
	return apiequality.Semantic.DeepEqual(x, y)
}
