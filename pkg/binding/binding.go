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
	"github.com/mco-org/mco/pkg/controller"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	workinformers "github.com/mco-org/mco/pkg/generated/informers/externalversions/work/v1alpha2"
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
// Built by NewStore, its reads also see its own writes until the informers
// do (a binding it created moments ago is found, an update is not written
// again on the copy before it).
type Store struct {
	Client mcoclient.Interface
	RB     worklisters.ResourceBindingLister
	CRB    worklisters.ClusterResourceBindingLister

	rbOwn, crbOwn *controller.OwnWrites // nil when built without NewStore
}

// ownWritesSize is how many of its own binding writes a Store remembers
// until its informers show them: more than a burst of creates can outrun
// the informers by.
const ownWritesSize = 4096

// NewStore returns a Store over the binding informers.
func NewStore(client mcoclient.Interface, rbs workinformers.ResourceBindingInformer, crbs workinformers.ClusterResourceBindingInformer) (*Store, error) {
	s := &Store{Client: client, RB: rbs.Lister(), CRB: crbs.Lister()}
	var err error
	if s.rbOwn, err = controller.NewOwnWrites(rbs.Informer(), ownWritesSize); err != nil {
		return nil, err
	}
	if s.crbOwn, err = controller.NewOwnWrites(crbs.Informer(), ownWritesSize); err != nil {
		return nil, err
	}
	return s, nil
}

// Get returns a private copy of a binding.
func (s *Store) Get(k Key) (*View, error) {
	if k.Namespace == "" {
		var crb *workv1alpha2.ClusterResourceBinding
		var err error
		if s.crbOwn != nil {
			crb, err = controller.OwnGet[*workv1alpha2.ClusterResourceBinding](s.crbOwn, workv1alpha2.Resource("clusterresourcebindings"), "", k.Name)
		} else {
			crb, err = s.CRB.Get(k.Name)
		}
		if err != nil {
			return nil, err
		}
		return viewOfCRB(crb.DeepCopy()), nil
	}
	var rb *workv1alpha2.ResourceBinding
	var err error
	if s.rbOwn != nil {
		rb, err = controller.OwnGet[*workv1alpha2.ResourceBinding](s.rbOwn, workv1alpha2.Resource("resourcebindings"), k.Namespace, k.Name)
	} else {
		rb, err = s.RB.ResourceBindings(k.Namespace).Get(k.Name)
	}
	if err != nil {
		return nil, err
	}
	return viewOfRB(rb.DeepCopy()), nil
}

// SchedulePriority is a ResourceBinding's priority in the scheduling
// queue, read from the cache without a copy (0 when it has none, is not
// cached, or is a ClusterResourceBinding, which never has one).
func (s *Store) SchedulePriority(k Key) int32 {
	if k.Namespace == "" {
		return 0
	}
	rb, err := s.RB.ResourceBindings(k.Namespace).Get(k.Name)
	if err != nil || rb.Spec.SchedulePriority == nil {
		return 0
	}
	return rb.Spec.SchedulePriority.Priority
}

// wroteRB remembers what a write of the Store returned and views a copy.
func (s *Store) wroteRB(rb *workv1alpha2.ResourceBinding) *View {
	if s.rbOwn != nil {
		s.rbOwn.Wrote(rb)
		rb = rb.DeepCopy() // the remembered object is shared
	}
	return viewOfRB(rb)
}

func (s *Store) wroteCRB(crb *workv1alpha2.ClusterResourceBinding) *View {
	if s.crbOwn != nil {
		s.crbOwn.Wrote(crb)
		crb = crb.DeepCopy()
	}
	return viewOfCRB(crb)
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
		return s.wroteCRB(out), nil
	}
	out, err := s.Client.WorkV1alpha2().ResourceBindings(v.Key.Namespace).Create(ctx, v.rb, metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", v.Key, err)
	}
	return s.wroteRB(out), nil
}

// Update writes metadata and spec.
func (s *Store) Update(ctx context.Context, v *View) (*View, error) {
	if v.crb != nil {
		out, err := s.Client.WorkV1alpha2().ClusterResourceBindings().Update(ctx, v.crb, metav1.UpdateOptions{})
		if err != nil {
			return nil, fmt.Errorf("update %s: %w", v.Key, err)
		}
		return s.wroteCRB(out), nil
	}
	out, err := s.Client.WorkV1alpha2().ResourceBindings(v.Key.Namespace).Update(ctx, v.rb, metav1.UpdateOptions{})
	if err != nil {
		return nil, fmt.Errorf("update %s: %w", v.Key, err)
	}
	return s.wroteRB(out), nil
}

// UpdateStatus writes status.
func (s *Store) UpdateStatus(ctx context.Context, v *View) error {
	if v.crb != nil {
		out, err := s.Client.WorkV1alpha2().ClusterResourceBindings().UpdateStatus(ctx, v.crb, metav1.UpdateOptions{})
		if err != nil {
			return fmt.Errorf("update status of %s: %w", v.Key, err)
		}
		s.wroteCRB(out)
		return nil
	}
	out, err := s.Client.WorkV1alpha2().ResourceBindings(v.Key.Namespace).UpdateStatus(ctx, v.rb, metav1.UpdateOptions{})
	if err != nil {
		return fmt.Errorf("update status of %s: %w", v.Key, err)
	}
	s.wroteRB(out)
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
