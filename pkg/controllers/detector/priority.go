package detector

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/events"
)

// schedulePriority resolves the policy's schedulePriority into the
// binding's, as Karmada does: the value of the PriorityClass it names,
// read when the template is applied (PriorityClasses are not watched), for
// ResourceBindings only. A class that does not exist holds the template
// back: a Warning on it names the class, and it is tried again with
// back-off, neither binding created nor changed meanwhile.
func (d *Detector) schedulePriority(ctx context.Context, obj *unstructured.Unstructured, p *policyv1alpha1.PropagationSpec, c claim) (*workv1alpha2.SchedulePriority, error) {
	if obj.GetNamespace() == "" || p.SchedulePriority == nil {
		return nil, nil
	}
	name := p.SchedulePriority.PriorityClassName
	pc, err := d.kube.SchedulingV1().PriorityClasses().Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		d.recorder.Eventf(obj, corev1.EventTypeWarning, events.ApplyPolicyFailed,
			"Apply policy %s failed: its schedulePriority names PriorityClass %q, which does not exist", c, name)
		return nil, controller.Retry("%s %s/%s: PriorityClass %q of policy %s does not exist", obj.GetKind(), obj.GetNamespace(), obj.GetName(), name, c)
	}
	if err != nil {
		return nil, fmt.Errorf("get PriorityClass %s: %w", name, err)
	}
	return &workv1alpha2.SchedulePriority{Priority: pc.Value}, nil
}
