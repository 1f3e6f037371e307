package execution

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/events"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/workload"
)

// ReasonFieldsDropped is the reason of a Work's Degraded condition (and of
// the Warning Event on its template) when the member kept the manifests
// but not all of their fields: an older Kubernetes version that lacks
// them, a feature gate off, an older schema of a custom resource.
const ReasonFieldsDropped = "FieldsDropped"

// ReasonFieldsUnknown is the reason of a Work's Applied condition, False,
// when the member refused a manifest for fields its schema does not
// declare (server-side apply refuses them, where an update would drop
// them): the apply stops at that object, and is not tried again until the
// Work changes or the member reports another version.
const ReasonFieldsUnknown = "FieldsUnknown"

// At most this many manifests, and fields of each, are named.
const maxDroppedNamed = 8

// errFieldsUnknown is a member's refusal of a manifest for fields its
// schema does not declare.
type errFieldsUnknown struct {
	note string // Kind namespace/name (paths)
}

func (e *errFieldsUnknown) Error() string { return "fields unknown to the member: " + e.note }

// undeclared finds the paths of a member's "field not declared in schema"
// refusal of an apply (as structured-merge-diff words it:
// ".spec.x: field not declared in schema", one per field).
var undeclared = regexp.MustCompile(`(\.[^\s:]+): field not declared in schema`)

// fieldsUnknown turns a member's refusal of m for undeclared fields into
// an *errFieldsUnknown; other errors are returned as they are.
func fieldsUnknown(err error, m *unstructured.Unstructured) error {
	if err == nil {
		return nil
	}
	found := undeclared.FindAllStringSubmatch(err.Error(), -1)
	if len(found) == 0 {
		return err
	}
	paths := make([]string, 0, len(found))
	for _, f := range found {
		paths = append(paths, strings.TrimPrefix(f[1], "."))
	}
	return &errFieldsUnknown{note: noteOf(m, paths)}
}

// refusedMessage says what a member refused, and what to do about it.
func refusedMessage(cluster, version string, e *errFieldsUnknown) string {
	return fmt.Sprintf("%s refuses %s: fields its schema does not declare. The Work's apply stops at that object "+
		"and is not tried again until the Work changes or the cluster reports another version: remove the fields "+
		"for this cluster with an OverridePolicy, or upgrade the cluster.", who(cluster, version), e.note)
}

// who names a cluster and, when known, its version.
func who(cluster, version string) string {
	if version == "" {
		return "Cluster " + cluster
	}
	return "Cluster " + cluster + " (Kubernetes " + version + ")"
}

// droppedNote names what one manifest lost.
func droppedNote(m *unstructured.Unstructured, fields []workload.FieldPath) string {
	paths := make([]string, len(fields))
	for i, f := range fields {
		paths[i] = f.String()
	}
	return noteOf(m, paths)
}

func noteOf(m *unstructured.Unstructured, paths []string) string {
	return fmt.Sprintf("%s %s (%s)", m.GetKind(), name(m), strings.Join(capped(paths), ", "))
}

func capped(items []string) []string {
	if len(items) <= maxDroppedNamed {
		return items
	}
	return append(items[:maxDroppedNamed:maxDroppedNamed], fmt.Sprintf("and %d more", len(items)-maxDroppedNamed))
}

// degradedCondition says what the member dropped from the Work's
// manifests, and what to do about it; nil when it kept everything.
func degradedCondition(cluster, version string, notes []string, generation int64) *metav1.Condition {
	if len(notes) == 0 {
		return nil
	}
	return &metav1.Condition{
		Type: workv1alpha1.WorkDegraded, Status: metav1.ConditionTrue, Reason: ReasonFieldsDropped, ObservedGeneration: generation,
		Message: fmt.Sprintf("%s applied the manifest without fields it does not know or has switched off: %s. "+
			"The rest is applied and is not applied again for this. Remove the fields for this cluster with an OverridePolicy, "+
			"or upgrade the cluster or enable its feature gate.", who(cluster, version), strings.Join(capped(notes), "; ")),
	}
}

// setDegraded records c (or, nil, clears the condition) on the Work's
// status and tells whether that is news.
func setDegraded(st *workv1alpha1.WorkStatus, c *metav1.Condition) bool {
	if c == nil {
		return meta.RemoveStatusCondition(&st.Conditions, workv1alpha1.WorkDegraded)
	}
	old := meta.FindStatusCondition(st.Conditions, workv1alpha1.WorkDegraded)
	news := old == nil || old.Message != c.Message || old.Status != c.Status
	meta.SetStatusCondition(&st.Conditions, *c)
	return news
}

// recordDropped tells the log, and the template's users, once what the
// member dropped.
func (e *Controller) recordDropped(ctx context.Context, w *workv1alpha1.Work, m *unstructured.Unstructured, c *metav1.Condition) {
	if c == nil {
		return
	}
	klog.FromContext(ctx).Info("Member dropped fields of a Work's manifests", "work", w.Namespace+"/"+w.Name, "message", c.Message)
	uid := m.GetAnnotations()[workv1alpha1.ResourceTemplateUIDAnnotation]
	if uid == "" {
		return
	}
	ref := events.Ref(m.GetAPIVersion(), m.GetKind(), m.GetNamespace(), m.GetName(), types.UID(uid))
	e.recorders.For(ref.Namespace+"/"+ref.Name).Event(ref, corev1.EventTypeWarning, ReasonFieldsDropped, c.Message)
}

// clusterVersion is the Kubernetes version a cluster reports, if known.
func (e *Controller) clusterVersion(cluster string) string {
	c, err := e.clusters.Get(cluster)
	if err != nil {
		return ""
	}
	return c.Status.KubernetesVersion
}

// clusterUpgraded applies again, when a member reports another Kubernetes
// version, the Works it dropped or refused fields of: the new version may
// take them.
func (e *Controller) clusterUpgraded(oldObj, newObj any) {
	o, ok1 := oldObj.(*clusterv1alpha1.Cluster)
	n, ok2 := newObj.(*clusterv1alpha1.Cluster)
	if !ok1 || !ok2 || o.Status.KubernetesVersion == n.Status.KubernetesVersion || o.Status.KubernetesVersion == "" {
		return
	}
	works, err := e.works.Works(names.ExecutionSpace(n.Name)).List(labels.Everything())
	if err != nil {
		return
	}
	for _, w := range works {
		degraded := meta.FindStatusCondition(w.Status.Conditions, workv1alpha1.WorkDegraded)
		applied := meta.FindStatusCondition(w.Status.Conditions, workv1alpha1.WorkApplied)
		if (degraded != nil && degraded.Reason == ReasonFieldsDropped) || (applied != nil && applied.Reason == ReasonFieldsUnknown) {
			e.enqueueKey(n.Name, w.Name)
		}
	}
}

// userFields leaves out of what a member dropped the defaults mco-apiserver
// filled in (a newer version's defaults, which the user did not write and
// cannot act on: a StatefulSet's rollingUpdate.maxUnavailable from 1.35
// on). A dry-run update of the template without those fields gives back,
// with the same value, the ones mco-apiserver defaults; a field the
// template lacks came from an override and is the user's. Everything is
// kept when that cannot be asked: in mco-agent, for an add-on's objects,
// on any error (an immutable field, say).
func (e *Controller) userFields(ctx context.Context, m *unstructured.Unstructured, dropped []workload.FieldPath) []workload.FieldPath {
	if e.templates == nil || e.dynamic == nil || m.GetAnnotations()[workv1alpha1.ResourceTemplateUIDAnnotation] == "" {
		return dropped
	}
	x, ok := e.templates.ByGVK(m.GroupVersionKind())
	if !ok {
		return dropped
	}
	client := e.dynamic.Resource(x.GVR).Namespace(m.GetNamespace())
	tmpl, err := client.Get(ctx, m.GetName(), metav1.GetOptions{})
	if err != nil {
		klog.FromContext(ctx).Info("Could not tell defaults from dropped fields", "object", name(m), "err", err)
		return dropped
	}
	probe := tmpl.DeepCopy()
	for _, p := range dropped {
		workload.Remove(probe.Object, p)
	}
	defaulted, err := client.Update(ctx, probe, metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}})
	if err != nil {
		klog.FromContext(ctx).Info("Could not tell defaults from dropped fields", "object", name(m), "err", err)
		return dropped
	}
	var out []workload.FieldPath
	for _, p := range dropped {
		was, inTemplate := workload.Lookup(tmpl.Object, p)
		if got, ok := workload.Lookup(defaulted.Object, p); !inTemplate || !ok || !workload.Same(was, got) {
			out = append(out, p)
		}
	}
	return out
}
