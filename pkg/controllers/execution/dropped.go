package execution

import (
	"context"
	"fmt"
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
)

// ReasonFieldsDropped is the reason of a Work's Degraded condition (and of
// the Warning Event on its template) when the member kept the manifests
// but not all of their fields: an older Kubernetes version that lacks
// them, a feature gate off, an older schema of a custom resource.
const ReasonFieldsDropped = "FieldsDropped"

// At most this many manifests, and fields of each, are named.
const maxDroppedNamed = 8

// droppedNote names what one manifest lost.
func droppedNote(m *unstructured.Unstructured, fields []string) string {
	return fmt.Sprintf("%s %s (%s)", m.GetKind(), name(m), strings.Join(capped(fields), ", "))
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
	who := "Cluster " + cluster
	if version != "" {
		who += " (Kubernetes " + version + ")"
	}
	return &metav1.Condition{
		Type: workv1alpha1.WorkDegraded, Status: metav1.ConditionTrue, Reason: ReasonFieldsDropped, ObservedGeneration: generation,
		Message: fmt.Sprintf("%s applied the manifest without fields it does not know or has switched off: %s. "+
			"The rest is applied and is not applied again for this. Remove the fields for this cluster with an OverridePolicy, "+
			"or upgrade the cluster or enable its feature gate.", who, strings.Join(capped(notes), "; ")),
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
// version, the Works it dropped fields of: the new version may keep them.
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
		if c := meta.FindStatusCondition(w.Status.Conditions, workv1alpha1.WorkDegraded); c != nil && c.Reason == ReasonFieldsDropped {
			e.enqueueKey(n.Name, w.Name)
		}
	}
}
