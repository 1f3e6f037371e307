package addon

import (
	"context"
	"fmt"
	"time"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/mco-org/mco/pkg/addon"
	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/controller"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	addonlisters "github.com/mco-org/mco/pkg/generated/listers/addons/v1alpha1"
	"github.com/mco-org/mco/pkg/metrics"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/template"
)

// worksByAddon indexes Works by the add-on they carry.
const worksByAddon = "addon"

// Controller writes each Addon's status: per placed cluster, its phase
// from what the binding controller made of it and what its Works say.
type Controller struct {
	mco       mcoclient.Interface
	addons    addonlisters.AddonLister
	bindings  *binding.Store
	works     cache.SharedIndexInformer
	outcomes  *addon.Outcomes
	templates *template.Resources
	metrics   *metrics.Addons
	loop      *controller.Controller[string]
	// window gathers changes in passing (an installing cluster's
	// progress) into one write; news is written at once.
	window *controller.Coalescer[string]
}

// Deps are what the status controller reads and writes.
type Deps struct {
	MCO       mcoclient.Interface
	Addons    cache.SharedIndexInformer // of *addonsv1alpha1.Addon
	Lister    addonlisters.AddonLister
	CRBs      cache.SharedIndexInformer
	Works     cache.SharedIndexInformer
	Bindings  *binding.Store
	Outcomes  *addon.Outcomes
	Templates *template.Resources
	Metrics   *metrics.Addons
	// Window is how long changes in passing are gathered (see
	// controller.Coalescer).
	Window time.Duration
}

// NewController builds the add-on status controller.
func NewController(d Deps) (*Controller, error) {
	c := &Controller{mco: d.MCO, addons: d.Lister, bindings: d.Bindings, works: d.Works, outcomes: d.Outcomes,
		templates: d.Templates, metrics: d.Metrics, window: controller.NewCoalescer[string](d.Window)}
	if err := d.Works.AddIndexers(cache.Indexers{worksByAddon: func(obj any) ([]string, error) {
		if w, ok := obj.(*workv1alpha1.Work); ok && w.Labels[addon.AddonLabel] != "" {
			return []string{w.Labels[addon.AddonLabel]}, nil
		}
		return nil, nil
	}}); err != nil {
		return nil, fmt.Errorf("addon controller: %w", err)
	}
	c.loop = controller.New("addon", c.sync)
	c.loop.WaitFor(d.Addons.HasSynced, d.CRBs.HasSynced, d.Works.HasSynced)
	d.Outcomes.OnChange(c.loop.Enqueue)
	handlers := []struct {
		inf cache.SharedIndexInformer
		h   cache.ResourceEventHandler
	}{
		{d.Addons, cache.ResourceEventHandlerFuncs{
			AddFunc: c.enqueueAddon,
			UpdateFunc: func(oldObj, newObj any) {
				o, n := oldObj.(*addonsv1alpha1.Addon), newObj.(*addonsv1alpha1.Addon)
				if o.Generation != n.Generation || n.DeletionTimestamp != nil {
					c.enqueueAddon(newObj)
				}
			},
			DeleteFunc: c.enqueueAddon,
		}},
		{d.Works, cache.ResourceEventHandlerFuncs{
			AddFunc:    c.enqueueWork,
			UpdateFunc: func(_, n any) { c.enqueueWork(n) },
			DeleteFunc: c.enqueueWork,
		}},
		{d.CRBs, cache.ResourceEventHandlerFuncs{
			AddFunc:    c.enqueuePlacement,
			UpdateFunc: func(_, n any) { c.enqueuePlacement(n) },
			DeleteFunc: c.enqueuePlacement,
		}},
	}
	for _, x := range handlers {
		if _, err := x.inf.AddEventHandler(x.h); err != nil {
			return nil, fmt.Errorf("addon controller: %w", err)
		}
	}
	return c, nil
}

// Run runs the controller with workers until ctx ends.
func (c *Controller) Run(ctx context.Context, workers int) error { return c.loop.Run(ctx, workers) }

func (c *Controller) enqueueAddon(obj any) {
	if k, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
		c.loop.Enqueue(k)
	}
}

func (c *Controller) enqueueWork(obj any) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	if w, ok := obj.(*workv1alpha1.Work); ok && w.Labels[addon.AddonLabel] != "" {
		c.loop.Enqueue(w.Labels[addon.AddonLabel])
	}
}

func (c *Controller) enqueuePlacement(obj any) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	if crb, ok := obj.(*workv1alpha2.ClusterResourceBinding); ok && template.IsAddon(template.KeyOfRef(crb.Spec.Resource).GVK) {
		c.loop.Enqueue(crb.Spec.Resource.Name)
	}
}

// sync writes one Addon's status.
func (c *Controller) sync(ctx context.Context, name string) error {
	a, err := c.addons.Get(name)
	if apierrors.IsNotFound(err) {
		c.outcomes.Forget(name)
		c.metrics.ForgetAddon(name)
		c.window.Forget(name)
		return nil
	}
	if err != nil {
		return err
	}
	in := StatusInput{Addon: a, Works: map[string][]*workv1alpha1.Work{}}
	in.Outcomes, _ = c.outcomes.Get(name)
	v, err := c.bindings.Get(binding.Key{Name: names.Binding("Addon", name)})
	switch {
	case apierrors.IsNotFound(err):
	case err != nil:
		return err
	case v.Meta.DeletionTimestamp == nil:
		for _, t := range binding.Targets(v.Spec) {
			in.Placed = append(in.Placed, t.Name)
		}
	}
	objs, err := c.works.GetIndexer().ByIndex(worksByAddon, name)
	if err != nil {
		return err
	}
	for _, o := range objs {
		w := o.(*workv1alpha1.Work)
		if cluster, ok := names.ClusterOf(w.Namespace); ok {
			in.Works[cluster] = append(in.Works[cluster], w)
		}
	}
	st := Status(in)
	c.metrics.Observe(name, st.Clusters)
	if apiequality.Semantic.DeepEqual(a.Status, st) {
		c.window.Written(name)
		return nil
	}
	if due, wait := c.window.Due(name, controller.SettledIf(News(&a.Status, &st))); !due {
		c.loop.EnqueueAfter(name, wait)
		return nil
	}
	out := a.DeepCopy()
	out.Status = st
	written, err := c.mco.AddonsV1alpha1().Addons().UpdateStatus(ctx, out, metav1.UpdateOptions{})
	if err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("update status of addon %s: %w", name, err)
	}
	c.templates.RecordStatusWrite(written.UID, a.ResourceVersion, written.ResourceVersion)
	c.window.Written(name)
	return nil
}
