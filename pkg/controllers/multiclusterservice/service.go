package multiclusterservice

import (
	"context"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/mcs"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/template"
)

var (
	serviceGVK = corev1.SchemeGroupVersion.WithKind("Service")
	serviceGVR = corev1.SchemeGroupVersion.WithResource("services")
)

// serviceBinding is the binding of the Service a MultiClusterService names.
func serviceBinding(k key) binding.Key {
	return binding.Key{Namespace: k.Namespace, Name: names.Binding(serviceGVK.Kind, k.Name)}
}

// propagateService claims the Service of a CrossCluster
// MultiClusterService and keeps its binding on providers ∪ consumers with
// Overwrite, as Karmada does; a policy selecting the same Service is not
// applied to it (the detector says so in an Event). It returns the
// ServiceApplied condition.
func (m *Controller) propagateService(ctx context.Context, svc *networkingv1alpha1.MultiClusterService) (metav1.Condition, error) {
	c := metav1.Condition{Type: networkingv1alpha1.ConditionServiceApplied, ObservedGeneration: svc.Generation}
	cached, err := m.templates.Get(template.Key{GVK: serviceGVK, Namespace: svc.Namespace, Name: svc.Name})
	if apierrors.IsNotFound(err) {
		c.Status, c.Reason = metav1.ConditionFalse, networkingv1alpha1.ConditionServiceApplied+"Failed"
		c.Message = fmt.Sprintf("Service %s/%s does not exist: it is propagated once created", svc.Namespace, svc.Name)
		return c, nil
	}
	if err != nil {
		return c, err
	}
	obj := cached.DeepCopy()
	if mcs.ClaimService(obj, svc) {
		if obj, err = m.dynamic.Resource(serviceGVR).Namespace(svc.Namespace).Update(ctx, obj, metav1.UpdateOptions{}); err != nil {
			return c, fmt.Errorf("claim Service %s/%s: %w", svc.Namespace, svc.Name, err)
		}
	}
	if err := m.bindService(ctx, svc, obj); err != nil {
		return c, err
	}
	c.Status, c.Reason = metav1.ConditionTrue, networkingv1alpha1.ConditionServiceApplied+"Succeed"
	c.Message = "Service is propagated to target clusters: " + describePlacement(mcs.ServicePlacement(&svc.Spec))
	return c, nil
}

// bindService creates or updates the Service's binding.
func (m *Controller) bindService(ctx context.Context, svc *networkingv1alpha1.MultiClusterService, obj *unstructured.Unstructured) error {
	k := serviceBinding(key{svc.Namespace, svc.Name})
	want := workv1alpha2.ResourceBindingSpec{
		Resource: workv1alpha2.ObjectReference{
			APIVersion: obj.GetAPIVersion(), Kind: obj.GetKind(), Namespace: obj.GetNamespace(), Name: obj.GetName(),
			UID: obj.GetUID(), ResourceVersion: m.templates.EffectiveResourceVersion(obj),
		},
		Placement:          mcs.ServicePlacement(&svc.Spec),
		ConflictResolution: policyv1alpha1.ConflictOverwrite,
	}
	v, err := m.bindings.Get(k)
	if apierrors.IsNotFound(err) {
		v = binding.New(k)
		mcs.ClaimBinding(v.Meta, svc)
		v.Meta.OwnerReferences = []metav1.OwnerReference{binding.OwnerReference(obj)}
		v.Meta.Finalizers = []string{k.Finalizer()}
		*v.Spec = want
		if _, err := m.bindings.Create(ctx, v); apierrors.IsAlreadyExists(err) {
			return controller.Retry("%s appeared while creating it", k)
		} else if err != nil {
			return fmt.Errorf("create %s: %w", k, err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("get %s: %w", k, err)
	}
	if v.Meta.DeletionTimestamp != nil {
		return controller.Retry("%s is being deleted", k)
	}
	changed := mcs.ClaimBinding(v.Meta, svc)
	changed = binding.SetOwner(v.Meta, binding.OwnerReference(obj)) || changed
	changed = binding.MergePolicyFields(v.Spec, want) || changed
	if !changed {
		return nil
	}
	if _, err := m.bindings.Update(ctx, v); err != nil {
		return fmt.Errorf("update %s: %w", k, err)
	}
	return nil
}

// releaseService takes the marks of a MultiClusterService that is gone or
// no longer CrossCluster off its Service's binding and the Service; the
// binding and what was propagated stay (as when a policy goes), and a
// policy selecting the Service claims it again.
func (m *Controller) releaseService(ctx context.Context, k key) error {
	v, err := m.bindings.Get(serviceBinding(k))
	switch {
	case apierrors.IsNotFound(err):
	case err != nil:
		return err
	case claimedByIt(v.Meta, k) && mcs.Release(v.Meta):
		if _, err := m.bindings.Update(ctx, v); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("release %s: %w", v.Key, err)
		}
	}
	cached, err := m.templates.Get(template.Key{GVK: serviceGVK, Namespace: k.Namespace, Name: k.Name})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	obj := cached.DeepCopy()
	if !claimedByIt(obj, k) || !mcs.Release(obj) {
		return nil
	}
	if _, err := m.dynamic.Resource(serviceGVR).Namespace(k.Namespace).Update(ctx, obj, metav1.UpdateOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("release Service %s/%s: %w", k.Namespace, k.Name, err)
	}
	return nil
}

// claimedByIt tells whether the MultiClusterService k claims obj.
func claimedByIt(obj metav1.Object, k key) bool {
	ns, name := mcs.ClaimedBy(obj)
	return ns == k.Namespace && name == k.Name
}

// describePlacement says where a placement sends the Service.
func describePlacement(p *policyv1alpha1.Placement) string {
	if p.ClusterAffinity == nil {
		return "every joined cluster"
	}
	return strings.Join(p.ClusterAffinity.ClusterNames, ", ")
}
