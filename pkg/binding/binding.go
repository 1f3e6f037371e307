// Package binding gives controllers one view over ResourceBindings and
// ClusterResourceBindings, which share their spec and status types.
package binding

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	worklisters "github.com/mco-org/mco/pkg/generated/listers/work/v1alpha2"
)

// Key names a binding; Namespace is empty for a ClusterResourceBinding.
type Key struct {
	Namespace, Name string
}

func (k Key) String() string {
	if k.Namespace == "" {
		return "ClusterResourceBinding " + k.Name
	}
	return "ResourceBinding " + k.Namespace + "/" + k.Name
}

// KeyOf returns the key of a binding object (also from a tombstone).
func KeyOf(obj any) (Key, bool) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	switch b := obj.(type) {
	case *workv1alpha2.ResourceBinding:
		return Key{Namespace: b.Namespace, Name: b.Name}, true
	case *workv1alpha2.ClusterResourceBinding:
		return Key{Name: b.Name}, true
	}
	return Key{}, false
}

// View is a private copy of one binding: change it, then write it back.
type View struct {
	Key    Key
	Meta   *metav1.ObjectMeta
	Spec   *workv1alpha2.ResourceBindingSpec
	Status *workv1alpha2.ResourceBindingStatus
	rb     *workv1alpha2.ResourceBinding
	crb    *workv1alpha2.ClusterResourceBinding
}

// New returns a view of a binding to create.
func New(k Key) *View {
	if k.Namespace == "" {
		return viewOfCRB(&workv1alpha2.ClusterResourceBinding{ObjectMeta: metav1.ObjectMeta{Name: k.Name}})
	}
	return viewOfRB(&workv1alpha2.ResourceBinding{ObjectMeta: metav1.ObjectMeta{Namespace: k.Namespace, Name: k.Name}})
}

func viewOfRB(rb *workv1alpha2.ResourceBinding) *View {
	return &View{Key: Key{Namespace: rb.Namespace, Name: rb.Name}, Meta: &rb.ObjectMeta, Spec: &rb.Spec, Status: &rb.Status, rb: rb}
}

func viewOfCRB(crb *workv1alpha2.ClusterResourceBinding) *View {
	return &View{Key: Key{Name: crb.Name}, Meta: &crb.ObjectMeta, Spec: &crb.Spec, Status: &crb.Status, crb: crb}
}

// PermanentIDLabel is the label carrying the binding's permanent id.
func (k Key) PermanentIDLabel() string {
	if k.Namespace == "" {
		return workv1alpha2.ClusterResourceBindingPermanentIDLabel
	}
	return workv1alpha2.ResourceBindingPermanentIDLabel
}

// Finalizer is the finalizer the binding controller keeps on the binding.
func (k Key) Finalizer() string {
	if k.Namespace == "" {
		return workv1alpha2.ClusterResourceBindingControllerFinalizer
	}
	return workv1alpha2.BindingControllerFinalizer
}

// Object is the binding object itself (for events).
func (v *View) Object() runtime.Object {
	if v.crb != nil {
		return v.crb
	}
	return v.rb
}

// TemplateRef references the binding's template (for events).
func (v *View) TemplateRef() *corev1.ObjectReference {
	r := v.Spec.Resource
	return &corev1.ObjectReference{APIVersion: r.APIVersion, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name, UID: r.UID}
}

// PermanentID is the binding's permanent id (stamped by mco-apiserver).
func (v *View) PermanentID() string { return v.Meta.Labels[v.Key.PermanentIDLabel()] }

// Store reads bindings from listers and writes them through the client.
type Store struct {
	Client mcoclient.Interface
	RB     worklisters.ResourceBindingLister
	CRB    worklisters.ClusterResourceBindingLister
}

// Get returns a private copy of a binding.
func (s *Store) Get(k Key) (*View, error) {
	if k.Namespace == "" {
		crb, err := s.CRB.Get(k.Name)
		if err != nil {
			return nil, err
		}
		return viewOfCRB(crb.DeepCopy()), nil
	}
	rb, err := s.RB.ResourceBindings(k.Namespace).Get(k.Name)
	if err != nil {
		return nil, err
	}
	return viewOfRB(rb.DeepCopy()), nil
}

// GetLive reads a binding from mco-apiserver itself, for when the cache
// may lag behind a write this process just made.
func (s *Store) GetLive(ctx context.Context, k Key) (*View, error) {
	if k.Namespace == "" {
		crb, err := s.Client.WorkV1alpha2().ClusterResourceBindings().Get(ctx, k.Name, metav1.GetOptions{})
		if err != nil {
			return nil, err
		}
		return viewOfCRB(crb), nil
	}
	rb, err := s.Client.WorkV1alpha2().ResourceBindings(k.Namespace).Get(ctx, k.Name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	return viewOfRB(rb), nil
}

// Create writes a new binding.
func (s *Store) Create(ctx context.Context, v *View) (*View, error) {
	if v.crb != nil {
		out, err := s.Client.WorkV1alpha2().ClusterResourceBindings().Create(ctx, v.crb, metav1.CreateOptions{})
		if err != nil {
			return nil, fmt.Errorf("create %s: %w", v.Key, err)
		}
		return viewOfCRB(out), nil
	}
	out, err := s.Client.WorkV1alpha2().ResourceBindings(v.Key.Namespace).Create(ctx, v.rb, metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", v.Key, err)
	}
	return viewOfRB(out), nil
}

// Update writes metadata and spec.
func (s *Store) Update(ctx context.Context, v *View) (*View, error) {
	if v.crb != nil {
		out, err := s.Client.WorkV1alpha2().ClusterResourceBindings().Update(ctx, v.crb, metav1.UpdateOptions{})
		if err != nil {
			return nil, fmt.Errorf("update %s: %w", v.Key, err)
		}
		return viewOfCRB(out), nil
	}
	out, err := s.Client.WorkV1alpha2().ResourceBindings(v.Key.Namespace).Update(ctx, v.rb, metav1.UpdateOptions{})
	if err != nil {
		return nil, fmt.Errorf("update %s: %w", v.Key, err)
	}
	return viewOfRB(out), nil
}

// UpdateStatus writes status.
func (s *Store) UpdateStatus(ctx context.Context, v *View) error {
	var err error
	if v.crb != nil {
		_, err = s.Client.WorkV1alpha2().ClusterResourceBindings().UpdateStatus(ctx, v.crb, metav1.UpdateOptions{})
	} else {
		_, err = s.Client.WorkV1alpha2().ResourceBindings(v.Key.Namespace).UpdateStatus(ctx, v.rb, metav1.UpdateOptions{})
	}
	if err != nil {
		return fmt.Errorf("update status of %s: %w", v.Key, err)
	}
	return nil
}

// Delete deletes a binding.
func (s *Store) Delete(ctx context.Context, k Key) error {
	var err error
	if k.Namespace == "" {
		err = s.Client.WorkV1alpha2().ClusterResourceBindings().Delete(ctx, k.Name, metav1.DeleteOptions{})
	} else {
		err = s.Client.WorkV1alpha2().ResourceBindings(k.Namespace).Delete(ctx, k.Name, metav1.DeleteOptions{})
	}
	if err != nil {
		return fmt.Errorf("delete %s: %w", k, err)
	}
	return nil
}
