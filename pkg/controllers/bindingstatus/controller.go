// Package bindingstatus aggregates what the Works of a binding report into
// the binding's status (aggregatedStatus, FullyApplied) and the template's
// status on mco (for Deployments: summed replicas, observedGeneration and
// aggregated conditions).
package bindingstatus

import (
	"context"
	"fmt"
	"time"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/cache"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/controller"
	bindingcontroller "github.com/mco-org/mco/pkg/controllers/binding"
	"github.com/mco-org/mco/pkg/controllers/shared"
	rolloutlisters "github.com/mco-org/mco/pkg/generated/listers/rollout/v1alpha1"
	"github.com/mco-org/mco/pkg/interpreter"
	"github.com/mco-org/mco/pkg/rollout"
	"github.com/mco-org/mco/pkg/template"
)

// workSettle is how long Work changes are gathered before a binding's
// status is written.
const workSettle = 200 * time.Millisecond

// Controller is the binding status controller.
type Controller struct {
	bindings  *binding.Store
	templates *template.Resources
	dynamic   dynamic.Interface
	works     cache.SharedIndexInformer // indexed by binding.IndexWorks
	interp    *interpreter.Interpreter
	scripts   *shared.ScriptReporter
	rollouts  rolloutlisters.RolloutLister
	loop      *controller.Controller[binding.Key]
	workers   int
	// window coalesces the writes of a workload on its way; asides holds
	// back its template's changes in conditions alone (templateAside).
	window *controller.Coalescer[binding.Key]
	asides *controller.Coalescer[binding.Key]
}

// New builds the binding status controller.
func New(_ context.Context, c *shared.Context) (shared.Runner, error) {
	rbs := c.MCOInformers.Work().V1alpha2().ResourceBindings().Informer()
	crbs := c.MCOInformers.Work().V1alpha2().ClusterResourceBindings().Informer()
	works := c.MCOInformers.Work().V1alpha1().Works()
	if err := binding.IndexWorks(works.Informer()); err != nil {
		return nil, err
	}
	rollouts := c.MCOInformers.Rollout().V1alpha1().Rollouts()
	s := &Controller{bindings: c.Bindings, templates: c.Templates, dynamic: c.Dynamic, works: works.Informer(), workers: c.Workers,
		interp: c.Interpreter, scripts: c.Scripts, rollouts: rollouts.Lister(),
		window: controller.NewCoalescer[binding.Key](c.StatusCoalesceWindow), asides: controller.NewCoalescer[binding.Key](c.StatusCoalesceWindow)}
	s.loop = controller.New("binding-status", s.sync)
	s.loop.WaitFor(rbs.HasSynced, crbs.HasSynced, works.Informer().HasSynced, rollouts.Informer().HasSynced)
	s.loop.WaitFor(c.Templates.HasSynced, c.Customizations.HasSynced)
	// Templates' statuses are summed again when their kind's
	// customizations change.
	c.Customizations.OnChange(func(gvk schema.GroupVersionKind) {
		for _, k := range c.Bindings.OfKind(gvk) {
			s.loop.Enqueue(k)
		}
	})
	// A new or changed binding is followed by its Works: wait for them
	// rather than write a status that only says "no work yet".
	onBinding := cache.ResourceEventHandlerFuncs{
		AddFunc: s.enqueueSettled,
		UpdateFunc: func(oldObj, newObj any) {
			o, _ := meta.Accessor(oldObj)
			n, _ := meta.Accessor(newObj)
			if o == nil || n == nil || o.GetGeneration() != n.GetGeneration() {
				s.enqueueSettled(newObj)
			}
		},
	}
	onWork := func(obj any) {
		if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = t.Obj
		}
		if w, ok := obj.(*workv1alpha1.Work); ok {
			if k, ok := bindingcontroller.OwnerOf(w); ok {
				// Works of one binding change together: gather them into
				// one status write.
				s.loop.EnqueueAfter(k, workSettle)
			}
		}
	}
	for _, x := range []struct {
		inf cache.SharedIndexInformer
		h   cache.ResourceEventHandler
	}{
		{rbs, onBinding}, {crbs, onBinding},
		// A staged rollout's progress shows in its template's status.
		{rollouts.Informer(), cache.ResourceEventHandlerFuncs{UpdateFunc: func(_, obj any) {
			ro := obj.(*rolloutv1alpha1.Rollout)
			s.loop.Enqueue(rollout.BindingOf(ro))
		}}},
		{works.Informer(), cache.ResourceEventHandlerFuncs{AddFunc: onWork, UpdateFunc: func(_, obj any) { onWork(obj) }, DeleteFunc: onWork}},
	} {
		if _, err := x.inf.AddEventHandler(x.h); err != nil {
			return nil, fmt.Errorf("binding status controller: %w", err)
		}
	}
	return func(ctx context.Context) error { return s.loop.Run(ctx, s.workers) }, nil
}

func (s *Controller) enqueueSettled(obj any) {
	if k, ok := binding.KeyOf(obj); ok {
		s.loop.EnqueueAfter(k, workSettle)
	}
}

// sync aggregates one binding's status and its template's.
func (s *Controller) sync(ctx context.Context, k binding.Key) error {
	v, err := s.bindings.Get(k)
	if apierrors.IsNotFound(err) {
		s.forget(k)
		return nil
	}
	if err != nil {
		return err
	}
	if v.Meta.DeletionTimestamp != nil || v.PermanentID() == "" {
		s.forget(k)
		return nil
	}
	works, err := binding.WorksOf(s.works, v)
	if err != nil {
		return err
	}
	targets := binding.Targets(v.Spec)
	if len(targets) == 0 && !decided(v) {
		return nil // the scheduler's decision, a change of generation, queues it again
	}
	placedAt := v.Meta.CreationTimestamp.Time
	if t := v.Status.LastScheduledTime; t != nil && t.After(placedAt) {
		placedAt = t.Time
	}
	if wait := settling(targets, works, placedAt, time.Now()); wait > 0 {
		// Each Work's update queues the binding again; this is the fallback.
		s.loop.EnqueueAfter(k, wait)
		return nil
	}
	items := aggregate(targets, works)
	before := v.Status.AggregatedStatus
	if setAggregated(v, items) {
		if due, wait := s.window.Due(k, controller.SettledIf(urgent(before, items))); !due {
			s.loop.EnqueueAfter(k, wait)
			return nil
		}
		if v, err = s.writeAggregated(ctx, v, items); err != nil {
			return err
		}
	}
	s.window.Written(k)
	return s.updateTemplate(ctx, v)
}

// forget drops what is kept for a binding that is going.
func (s *Controller) forget(k binding.Key) {
	s.window.Forget(k)
	s.asides.Forget(k)
}

// writeAggregated writes the aggregated status set on v. The scheduler
// writes this status too, moments after the spec that the Works come from:
// the cache, which also holds this process's own writes, nearly always has
// that write by now. When it shows the current generation undecided, the
// write goes on the server's copy at once; when the cache lagged all the
// same, the refused write is made again on the server's copy.
func (s *Controller) writeAggregated(ctx context.Context, v *binding.View, items []workv1alpha2.AggregatedStatusItem) (*binding.View, error) {
	if decided(v) {
		err := s.bindings.UpdateStatus(ctx, v)
		if !apierrors.IsConflict(err) {
			return v, err
		}
	}
	fresh, err := s.bindings.GetLive(ctx, v.Key)
	if err != nil {
		return nil, err
	}
	if setAggregated(fresh, items) {
		if err := s.bindings.UpdateStatus(ctx, fresh); err != nil {
			return nil, err
		}
	}
	return fresh, nil
}

// setAggregated puts the aggregated items and the FullyApplied condition
// into a binding's status and reports whether that changed it.
func setAggregated(v *binding.View, items []workv1alpha2.AggregatedStatusItem) bool {
	before := v.Status.DeepCopy()
	v.Status.AggregatedStatus = items
	meta.SetStatusCondition(&v.Status.Conditions, fullyApplied(items, v.Meta.Generation))
	return !apiequality.Semantic.DeepEqual(before, v.Status)
}

// updateTemplate writes the aggregated status onto the template.
func (s *Controller) updateTemplate(ctx context.Context, v *binding.View) error {
	r := v.Spec.Resource
	tk := template.KeyOfRef(r)
	if template.IsAddon(tk.GVK) {
		return nil // the add-on controller writes an Addon's status
	}
	cached, err := s.templates.Get(tk)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	status, ok, err := s.interp.AggregateStatus(ctx, cached, v.Status.AggregatedStatus, metav1.Now())
	if rerr := s.scripts.Report(ctx, v.Key, tk.GVK, configv1alpha1.InterpreterOperationAggregateStatus, err); rerr != nil && err == nil {
		return rerr
	}
	if err != nil || !ok {
		return err
	}
	staged := false
	if ro, err := s.rollouts.Rollouts(rollout.RecordNamespace(v.Key.Namespace)).Get(v.Key.Name); err == nil {
		recorded, _ := cached.Object["status"].(map[string]any)
		status = rollout.TemplateStatus(tk.GVK, status, recorded, v.Status.AggregatedStatus, ro, metav1.Now())
		staged = true
	}
	var want any // a script may leave the status out: then there is none
	if status != nil {
		want = status
	}
	if apiequality.Semantic.DeepEqual(cached.Object["status"], want) {
		s.asides.Forget(v.Key)
		return nil
	}
	if !staged && templateAside(v.Status.AggregatedStatus, cached.Object["status"], want) {
		if due, wait := s.asides.Due(v.Key, controller.Aside); !due {
			s.loop.EnqueueAfter(v.Key, wait)
			return nil
		}
	}
	tmpl := cached.DeepCopy()
	if want == nil {
		delete(tmpl.Object, "status")
	} else {
		tmpl.Object["status"] = status
	}
	res, _ := s.templates.ByGVK(tk.GVK)
	var client dynamic.ResourceInterface = s.dynamic.Resource(res.GVR)
	if res.Namespaced {
		client = s.dynamic.Resource(res.GVR).Namespace(tmpl.GetNamespace())
	}
	out, err := client.UpdateStatus(ctx, tmpl, metav1.UpdateOptions{})
	if err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("update status of %s: %w", tk, err)
	}
	s.asides.Forget(v.Key)
	s.templates.RecordStatusWrite(out.GetUID(), cached.GetResourceVersion(), out.GetResourceVersion())
	return nil
}
