// Package workstatus brings the status of what mco applied in member
// clusters back into each Work: per manifest its reflected status and
// health, and the Work's Available condition. It watches, in every member,
// only the objects mco applied, with one informer per resource in use.
package workstatus

import (
	"context"
	"errors"
	"fmt"
	"sync"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/shared"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	worklisters "github.com/mco-org/mco/pkg/generated/listers/work/v1alpha1"
	"github.com/mco-org/mco/pkg/interpreter"
	"github.com/mco-org/mco/pkg/member"
	"github.com/mco-org/mco/pkg/names"
)

type workKey struct{ Namespace, Name string }

// Controller is the work status controller.
type Controller struct {
	mco     mcoclient.Interface
	works   worklisters.WorkLister
	members member.Source
	interp  *interpreter.Interpreter
	scripts *shared.ScriptReporter
	loop    *controller.Controller[workKey]
	workers int
	// held are the statuses applies left to be written here; window
	// coalesces the writes of a workload on its way.
	held   *shared.HeldStatuses
	window *controller.Coalescer[workKey]

	mu      sync.Mutex
	watched map[string]map[schema.GroupVersionResource]bool
}

// New builds the work status controller.
func New(_ context.Context, c *shared.Context) (shared.Runner, error) {
	works := c.MCOInformers.Work().V1alpha1().Works()
	s := &Controller{mco: c.MCO, works: works.Lister(), members: c.Members, workers: c.Workers,
		interp: c.Interpreter, scripts: c.Scripts, watched: map[string]map[schema.GroupVersionResource]bool{},
		held: c.HeldWorkStatuses, window: controller.NewCoalescer[workKey](c.StatusCoalesceWindow)}
	s.loop = controller.New("work-status", s.sync)
	if s.held != nil {
		s.held.OnHold(func(k types.NamespacedName) { s.loop.Enqueue(workKey{k.Namespace, k.Name}) })
	}
	s.loop.WaitFor(works.Informer().HasSynced, c.Customizations.HasSynced)
	// Statuses and health of a kind are read again when its
	// customizations change.
	c.Customizations.OnChange(func(gvk schema.GroupVersionKind) {
		all, _ := works.Lister().List(labels.Everything())
		for _, w := range all {
			if carries(w, gvk) {
				s.loop.Enqueue(workKey{w.Namespace, w.Name})
			}
		}
	})
	enqueue := func(obj any) {
		if w, ok := obj.(*workv1alpha1.Work); ok {
			s.loop.Enqueue(workKey{w.Namespace, w.Name})
		}
	}
	if _, err := works.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: enqueue,
		UpdateFunc: func(oldObj, newObj any) {
			o, n := oldObj.(*workv1alpha1.Work), newObj.(*workv1alpha1.Work)
			// Applied turning true is when the member object appears.
			if o.Generation != n.Generation || !apiequality.Semantic.DeepEqual(o.Status.Conditions, n.Status.Conditions) {
				enqueue(newObj)
			}
		},
		// What is kept for a Work is forgotten when it goes.
		DeleteFunc: func(obj any) {
			if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = t.Obj
			}
			enqueue(obj)
		},
	}); err != nil {
		return nil, fmt.Errorf("work status controller: %w", err)
	}
	c.Members.OnChange(s.memberChanged)
	return func(ctx context.Context) error { return s.loop.Run(ctx, s.workers) }, nil
}

// memberChanged forgets the informers of a cluster whose clients were
// replaced and re-examines its Works.
func (s *Controller) memberChanged(cluster string) {
	s.mu.Lock()
	delete(s.watched, cluster)
	s.mu.Unlock()
	works, _ := s.works.Works(names.ExecutionSpace(cluster)).List(labels.Everything())
	for _, w := range works {
		s.loop.Enqueue(workKey{w.Namespace, w.Name})
	}
}

// sync collects the status of one Work's manifests.
func (s *Controller) sync(ctx context.Context, k workKey) (retErr error) {
	cached, err := s.works.Works(k.Namespace).Get(k.Name)
	if apierrors.IsNotFound(err) {
		s.forget(k)
		return nil
	}
	if err != nil {
		return err
	}
	if cached.DeletionTimestamp != nil {
		s.forget(k)
		return nil
	}
	// What the last apply found, when it is newer than what is written.
	base := &cached.Status
	held, isHeld := s.heldFor(k, cached.Generation)
	if isHeld {
		base = &held.Status
	}
	if !meta.IsStatusConditionTrue(base.Conditions, workv1alpha1.WorkApplied) {
		return nil
	}
	cluster, ok := names.ClusterOf(k.Namespace)
	if !ok || !s.members.Reaches(cluster) {
		return nil // a Pull cluster's agent collects its Works' status
	}
	clients, err := s.members.Get(cluster)
	if err != nil {
		return err
	}
	w := cached.DeepCopy()
	statuses := make([]workv1alpha1.ManifestStatus, 0, len(w.Spec.Workload.Manifests))
	for i, m := range w.Spec.Workload.Manifests {
		manifest := &unstructured.Unstructured{}
		if err := manifest.UnmarshalJSON(m.Raw); err != nil {
			return nil // the execution controller reports broken manifests
		}
		DefaultNamespace(clients.Mapper, w, manifest)
		obj, id, err := s.observe(ctx, clients, manifest, i)
		if err != nil {
			return err
		}
		if obj == nil || Predates(obj, manifest) {
			// The member cache is behind the apply, whose answer the Work
			// records (or holds here): its next event brings the Work back.
			if isHeld && i < len(base.ManifestStatuses) {
				statuses = append(statuses, base.ManifestStatuses[i])
				continue
			}
			if obj != nil {
				return nil
			}
		}
		st, failed := ManifestStatus(ctx, s.interp, obj, manifest, id)
		if err := failed.Status; err != nil && interpreter.AsScriptError(err) == nil {
			return err
		}
		if owner, ok := binding.OwnerOf(w); ok {
			if err := failed.Report(ctx, s.scripts, owner, manifest.GroupVersionKind()); err != nil {
				return err
			}
		}
		if err := errors.Join(failed.Status, failed.Health); err != nil {
			// Written as far as it goes, and tried again later.
			defer func() { retErr = errors.Join(retErr, err) }()
		}
		statuses = append(statuses, st)
	}
	w.Status = *base.DeepCopy()
	w.Status.ManifestStatuses = statuses
	meta.SetStatusCondition(&w.Status.Conditions, AvailableCondition(statuses, w.Generation))
	if apiequality.Semantic.DeepEqual(w.Status, cached.Status) {
		s.written(k, held, isHeld)
		return nil
	}
	if due, wait := s.window.Due(k, Classify(&cached.Status, &w.Status)); !due {
		s.loop.EnqueueAfter(k, wait)
		return nil
	}
	if _, err := s.mco.WorkV1alpha1().Works(w.Namespace).UpdateStatus(ctx, w, metav1.UpdateOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("update status of work %s/%s: %w", w.Namespace, w.Name, err)
	}
	s.written(k, held, isHeld)
	return nil
}

// heldFor returns the status an apply of this generation left to be
// written, dropping one of an earlier generation.
func (s *Controller) heldFor(k workKey, generation int64) (shared.HeldStatus, bool) {
	if s.held == nil {
		return shared.HeldStatus{}, false
	}
	nn := types.NamespacedName{Namespace: k.Namespace, Name: k.Name}
	held, ok := s.held.Get(nn)
	if !ok {
		return held, false
	}
	if held.Generation != generation {
		if held.Generation < generation {
			s.held.Release(nn, held)
		}
		return held, false
	}
	return held, true
}

// forget drops what is kept for a Work that is going.
func (s *Controller) forget(k workKey) {
	s.window.Forget(k)
	s.held.Drop(types.NamespacedName{Namespace: k.Namespace, Name: k.Name})
}

// written closes a Work's window once what it shows is current.
func (s *Controller) written(k workKey, held shared.HeldStatus, isHeld bool) {
	s.window.Written(k)
	if isHeld {
		s.held.Release(types.NamespacedName{Namespace: k.Namespace, Name: k.Name}, held)
	}
}

// observe returns the member's copy of a manifest from the member
// informer (nil when absent), starting the informer on first use. The
// informer caches some kinds without fields mco's own rules never read
// (member.Slimmed): when a script or a webhook interprets such a kind's
// status or health, the copy is read whole from the member.
func (s *Controller) observe(ctx context.Context, c *member.Clients, manifest *unstructured.Unstructured, ordinal int) (*unstructured.Unstructured, workv1alpha1.ResourceIdentifier, error) {
	gvk := manifest.GroupVersionKind()
	id := workv1alpha1.ResourceIdentifier{Ordinal: ordinal, Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind,
		Namespace: manifest.GetNamespace(), Name: manifest.GetName()}
	mapping, err := c.Mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return nil, id, controller.Retry("cluster %s does not serve %s yet: %v", c.Cluster, gvk, err)
	}
	id.Resource = mapping.Resource.Resource
	inf := s.watch(c, mapping.Resource)
	if !inf.HasSynced() {
		return nil, id, controller.Retry("informer of %s in cluster %s not synced", mapping.Resource, c.Cluster)
	}
	key := manifest.GetName()
	if ns := manifest.GetNamespace(); ns != "" {
		key = ns + "/" + key
	}
	item, exists, err := inf.GetStore().GetByKey(key)
	if err != nil || !exists {
		return nil, id, err
	}
	if member.Slimmed(gvk.GroupKind()) && s.readsWhole(gvk) {
		whole, err := c.Dynamic.Resource(mapping.Resource).Namespace(manifest.GetNamespace()).Get(ctx, manifest.GetName(), metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil, id, nil
		}
		if err != nil {
			return nil, id, fmt.Errorf("read %s %s in cluster %s: %w", gvk.Kind, key, c.Cluster, err)
		}
		return whole, id, nil
	}
	obj, err := member.AsObject(item)
	if err != nil {
		return nil, id, fmt.Errorf("cluster %s: %w", c.Cluster, err)
	}
	return obj, id, nil
}

// readsWhole tells whether a script or a webhook interprets the status or
// the health of kind gvk, and so may read any of its fields.
func (s *Controller) readsWhole(gvk schema.GroupVersionKind) bool {
	return s.interp.Customized(gvk, configv1alpha1.InterpreterOperationInterpretStatus) ||
		s.interp.Customized(gvk, configv1alpha1.InterpreterOperationInterpretHealth)
}

// watch returns the informer of a resource in a member, registering the
// handler that maps member objects back to their Works once.
func (s *Controller) watch(c *member.Clients, gvr schema.GroupVersionResource) cache.SharedIndexInformer {
	inf := c.ObjectInformer(gvr)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.watched[c.Cluster] == nil {
		s.watched[c.Cluster] = map[schema.GroupVersionResource]bool{}
	}
	if !s.watched[c.Cluster][gvr] {
		s.watched[c.Cluster][gvr] = true
		_, _ = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc:    s.enqueueWorkOf,
			UpdateFunc: func(_, obj any) { s.enqueueWorkOf(obj) },
			DeleteFunc: s.enqueueWorkOf,
		})
		c.Start()
	}
	return inf
}

// enqueueWorkOf queues the Work a member object was applied from.
func (s *Controller) enqueueWorkOf(obj any) {
	m, ok := member.MetaOf(obj)
	if !ok {
		return
	}
	a := m.GetAnnotations()
	if ns, name := a[workv1alpha1.WorkNamespaceAnnotation], a[workv1alpha1.WorkNameAnnotation]; ns != "" && name != "" {
		s.loop.Enqueue(workKey{ns, name})
	}
}
