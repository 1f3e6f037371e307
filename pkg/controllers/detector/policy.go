package detector

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/events"
	"github.com/mco-org/mco/pkg/template"
)

// policyKey names a PropagationPolicy (Namespace set) or a
// ClusterPropagationPolicy.
type policyKey struct {
	Namespace, Name string
}

func (d *Detector) policyHandler() cache.ResourceEventHandler {
	enqueue := func(obj any) {
		if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = t.Obj
		}
		switch p := obj.(type) {
		case *policyv1alpha1.PropagationPolicy:
			d.policies.Enqueue(policyKey{Namespace: p.Namespace, Name: p.Name})
		case *policyv1alpha1.ClusterPropagationPolicy:
			d.policies.Enqueue(policyKey{Name: p.Name})
		}
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    enqueue,
		UpdateFunc: func(_, obj any) { enqueue(obj) },
		DeleteFunc: enqueue,
	}
}

// policyView is what syncPolicy needs of either kind of policy.
type policyView struct {
	obj       runtime.Object
	meta      *metav1.ObjectMeta
	selectors []policyv1alpha1.ResourceSelector
	claim     claim
	finalizer string
	update    func(ctx context.Context) error
}

func (d *Detector) getPolicy(k policyKey) (*policyView, error) {
	if k.Namespace == "" {
		cached, err := d.cpp.Get(k.Name)
		if err != nil {
			return nil, err
		}
		p := cached.DeepCopy()
		return &policyView{obj: p, meta: &p.ObjectMeta, selectors: p.Spec.ResourceSelectors,
			claim:     claim{cluster: true, name: p.Name, permanentID: permanentID(p.Labels, policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel, string(p.UID))},
			finalizer: policyv1alpha1.ClusterPropagationPolicyControllerFinalizer,
			update: func(ctx context.Context) error {
				_, err := d.mco.PolicyV1alpha1().ClusterPropagationPolicies().Update(ctx, p, metav1.UpdateOptions{})
				return err
			}}, nil
	}
	cached, err := d.pp.PropagationPolicies(k.Namespace).Get(k.Name)
	if err != nil {
		return nil, err
	}
	p := cached.DeepCopy()
	return &policyView{obj: p, meta: &p.ObjectMeta, selectors: p.Spec.ResourceSelectors,
		claim:     claim{namespace: p.Namespace, name: p.Name, permanentID: permanentID(p.Labels, policyv1alpha1.PropagationPolicyPermanentIDLabel, string(p.UID))},
		finalizer: policyv1alpha1.PropagationPolicyControllerFinalizer,
		update: func(ctx context.Context) error {
			_, err := d.mco.PolicyV1alpha1().PropagationPolicies(p.Namespace).Update(ctx, p, metav1.UpdateOptions{})
			return err
		}}, nil
}

// syncPolicy re-examines the templates a policy may select; when the
// policy is being deleted it first releases its claims, then lets it go.
func (d *Detector) syncPolicy(ctx context.Context, k policyKey) error {
	p, err := d.getPolicy(k)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	claimed, err := d.claimedBy(p.claim)
	if err != nil {
		return err
	}
	if p.meta.DeletionTimestamp == nil {
		for _, t := range claimed {
			d.loop.Enqueue(template.KeyOf(t))
		}
		d.enqueueSelected(k.Namespace, p.selectors)
		d.warnUnpropagatable(p)
		return nil
	}
	for _, t := range claimed {
		if err := d.releaseClaim(ctx, t.DeepCopy(), p.claim); err != nil {
			return err
		}
		d.loop.Enqueue(template.KeyOf(t)) // another policy may claim it now
	}
	if !controller.RemoveFinalizer(p.meta, p.finalizer) {
		return nil
	}
	if err := p.update(ctx); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("remove finalizer of policy %s: %w", k.Name, err)
	}
	klog.FromContext(ctx).V(2).Info("Released the claims of a deleted policy", "policy", k, "templates", len(claimed))
	return nil
}

// releaseClaim removes a deleted policy's claim from a template and its
// binding.
func (d *Detector) releaseClaim(ctx context.Context, t *unstructured.Unstructured, c claim) error {
	if claimOf(t.GetLabels(), t.GetAnnotations()) != c {
		return nil
	}
	return d.release(ctx, t)
}

// claimedBy lists the templates carrying a policy's claim label.
func (d *Detector) claimedBy(c claim) ([]*unstructured.Unstructured, error) {
	key := policyv1alpha1.PropagationPolicyPermanentIDLabel
	if c.cluster {
		key = policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel
	}
	sel := labels.SelectorFromSet(labels.Set{key: c.permanentID})
	var out []*unstructured.Unstructured
	for _, r := range d.templates.Kinds() {
		lister, ok := d.templates.Lister(r)
		if !ok {
			continue
		}
		objs, err := lister.List(sel)
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", r.GVR, err)
		}
		for _, o := range objs {
			if u, ok := o.(*unstructured.Unstructured); ok {
				out = append(out, u)
			}
		}
	}
	return out, nil
}

// enqueueSelected queues every template of the kinds a policy selects, in
// its namespace (every namespace for a ClusterPropagationPolicy).
func (d *Detector) enqueueSelected(namespace string, selectors []policyv1alpha1.ResourceSelector) {
	for _, s := range selectors {
		gv, err := schema.ParseGroupVersion(s.APIVersion)
		if err != nil {
			continue
		}
		r, ok := d.templates.ByGVK(gv.WithKind(s.Kind))
		if !ok {
			continue
		}
		lister, ok := d.templates.Lister(r)
		if !ok {
			continue
		}
		var objs []any
		if namespace != "" && r.Namespaced {
			list, _ := lister.ByNamespace(namespace).List(labels.Everything())
			for _, o := range list {
				objs = append(objs, o)
			}
		} else if namespace == "" {
			list, _ := lister.List(labels.Everything())
			for _, o := range list {
				objs = append(objs, o)
			}
		}
		for _, o := range objs {
			d.enqueueTemplate(o)
		}
	}
}

// specOf returns the spec of a binding object.
func specOf(obj any) *workv1alpha2.ResourceBindingSpec {
	switch b := obj.(type) {
	case *workv1alpha2.ResourceBinding:
		return &b.Spec
	case *workv1alpha2.ClusterResourceBinding:
		return &b.Spec
	}
	return nil
}

// warnUnpropagatable records a Warning on a policy that selects a kind mco
// does not propagate (unknown, or not a template kind such as Events).
func (d *Detector) warnUnpropagatable(p *policyView) {
	for _, s := range p.selectors {
		gv, err := schema.ParseGroupVersion(s.APIVersion)
		if err == nil {
			if _, ok := d.templates.ByGVK(gv.WithKind(s.Kind)); ok {
				continue
			}
		}
		d.recorder.Eventf(p.obj, corev1.EventTypeWarning, events.ResourceNotPropagatable,
			"%s %s is not a kind mco propagates; this selector selects nothing", s.APIVersion, s.Kind)
	}
}
