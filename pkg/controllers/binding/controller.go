// Package binding turns each scheduled binding into one Work per target
// cluster, holding the template rendered for that cluster: its replica
// share and the override policies that select the cluster.
package binding

import (
	"context"
	"fmt"
	"time"

	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/dynamic"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/controller"
	addonctl "github.com/mco-org/mco/pkg/controllers/addon"
	"github.com/mco-org/mco/pkg/controllers/shared"
	"github.com/mco-org/mco/pkg/events"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	addonlisters "github.com/mco-org/mco/pkg/generated/listers/addons/v1alpha1"
	clusterlisters "github.com/mco-org/mco/pkg/generated/listers/cluster/v1alpha1"
	policylisters "github.com/mco-org/mco/pkg/generated/listers/policy/v1alpha1"
	rolloutlisters "github.com/mco-org/mco/pkg/generated/listers/rollout/v1alpha1"
	"github.com/mco-org/mco/pkg/interpreter"
	"github.com/mco-org/mco/pkg/metrics"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/overridemanager"
	"github.com/mco-org/mco/pkg/template"
	"github.com/mco-org/mco/pkg/works"
)

// Controller is the binding controller.
type Controller struct {
	mco       mcoclient.Interface
	dynamic   dynamic.Interface
	bindings  *binding.Store
	templates *template.Resources
	workInf   cache.SharedIndexInformer // indexed by binding.IndexWorks
	writer    *works.Writer             // reads Works with this controller's own writes
	clusters  clusterlisters.ClusterLister
	rollouts  rolloutlisters.RolloutLister
	revisions appslisters.ControllerRevisionLister
	op        policylisters.OverridePolicyLister
	cop       policylisters.ClusterOverridePolicyLister
	metrics   *metrics.ControllerManager
	recorders *events.Sharded // by binding
	interp    *interpreter.Interpreter
	scripts   *shared.ScriptReporter
	loop      *controller.Controller[binding.Key]
	workers   int
	// expander makes the Works of Addons, read from addons; both nil when
	// mco runs without them.
	expander *addonctl.Expander
	addons   addonlisters.AddonLister
}

// ownWorksSize is how many of its own Work writes the controller remembers
// until the informer shows them.
const ownWorksSize = 8192

// New builds the binding controller.
func New(_ context.Context, c *shared.Context) (shared.Runner, error) {
	inf := c.MCOInformers
	rbs := inf.Work().V1alpha2().ResourceBindings().Informer()
	crbs := inf.Work().V1alpha2().ClusterResourceBindings().Informer()
	workInf := inf.Work().V1alpha1().Works()
	clusters := inf.Cluster().V1alpha1().Clusters()
	ops := inf.Policy().V1alpha1().OverridePolicies()
	cops := inf.Policy().V1alpha1().ClusterOverridePolicies()
	rollouts := inf.Rollout().V1alpha1().Rollouts()
	revisions := c.Revisions.Apps().V1().ControllerRevisions()
	if err := binding.IndexWorks(workInf.Informer()); err != nil {
		return nil, err
	}
	b := &Controller{
		mco: c.MCO, dynamic: c.Dynamic, bindings: c.Bindings, templates: c.Templates, workInf: workInf.Informer(), clusters: clusters.Lister(),
		op: ops.Lister(), cop: cops.Lister(), metrics: c.Metrics, recorders: events.NewSharded(events.Shards, c.NewRecorder), workers: c.Workers,
		interp: c.Interpreter, scripts: c.Scripts, rollouts: rollouts.Lister(), revisions: revisions.Lister(),
	}
	var err error
	if b.writer, err = works.NewWriter(c.MCO, workInf.Informer(), ownWorksSize); err != nil {
		return nil, fmt.Errorf("binding controller: %w", err)
	}
	b.loop = controller.New("binding", b.sync)
	b.loop.WaitFor(rbs.HasSynced, crbs.HasSynced, workInf.Informer().HasSynced, clusters.Informer().HasSynced,
		ops.Informer().HasSynced, cops.Informer().HasSynced, rollouts.Informer().HasSynced, revisions.Informer().HasSynced)
	b.loop.WaitFor(c.Templates.HasSynced, c.Customizations.HasSynced)
	if c.Addons != nil {
		addons := inf.Addons().V1alpha1().Addons()
		b.addons = addons.Lister()
		b.expander = addonctl.NewExpander(newRenderer(c), b.addons, c.Bindings, c.Addons.Outcomes)
		b.loop.WaitFor(addons.Informer().HasSynced)
		if _, err := addons.Informer().AddEventHandler(b.addonHandler()); err != nil {
			return nil, fmt.Errorf("binding controller: %w", err)
		}
		if _, err := crbs.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc: b.enqueueAddonPlacement, UpdateFunc: func(_, n any) { b.enqueueAddonPlacement(n) }, DeleteFunc: b.enqueueAddonPlacement,
		}); err != nil {
			return nil, fmt.Errorf("binding controller: %w", err)
		}
	}
	// Members' shares are revised again when the kind's customizations
	// change.
	c.Customizations.OnChange(func(gvk schema.GroupVersionKind) {
		for _, k := range c.Bindings.OfKind(gvk) {
			b.loop.Enqueue(k)
		}
	})
	handlers := []struct {
		inf cache.SharedIndexInformer
		h   cache.ResourceEventHandler
	}{
		{rbs, b.bindingHandler()},
		{crbs, b.bindingHandler()},
		{workInf.Informer(), cache.ResourceEventHandlerFuncs{UpdateFunc: b.onWorkUpdate, DeleteFunc: b.enqueueOwner}},
		{ops.Informer(), b.everyBinding()},
		{rollouts.Informer(), b.rolloutHandler()},
		{cops.Informer(), b.everyBinding()},
		{clusters.Informer(), cache.ResourceEventHandlerDetailedFuncs{
			// A Cluster back under a name bindings still target (an agent
			// registering its Pull cluster again) gets their Works.
			AddFunc: func(_ any, initial bool) {
				if !initial {
					b.enqueueAll()
				}
			},
			UpdateFunc: func(oldObj, newObj any) {
				o, n := oldObj.(*clusterv1alpha1.Cluster), newObj.(*clusterv1alpha1.Cluster)
				if o.Generation != n.Generation || !labels.Equals(o.Labels, n.Labels) {
					b.enqueueAll()
					return
				}
				b.enqueueAddonsOfCluster(o, n)
			}}},
	}
	for _, x := range handlers {
		if _, err := x.inf.AddEventHandler(x.h); err != nil {
			return nil, fmt.Errorf("binding controller: %w", err)
		}
	}
	return func(ctx context.Context) error { return b.loop.Run(ctx, b.workers) }, nil
}

// sync writes the Works of one binding.
func (b *Controller) sync(ctx context.Context, k binding.Key) (err error) {
	start := time.Now()
	defer func() {
		b.metrics.BindingSyncWorkDuration.WithLabelValues(metrics.Result(err)).Observe(time.Since(start).Seconds())
	}()
	v, err := b.bindings.Get(k)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if v.Meta.DeletionTimestamp != nil {
		return b.finalize(ctx, v)
	}
	if v.PermanentID() == "" {
		return controller.Retry("%s has no permanent id yet", k)
	}
	if controller.AddFinalizer(v.Meta, k.Finalizer()) {
		if v, err = b.bindings.Update(ctx, v); err != nil {
			return err
		}
	}
	// The binding names the template version it was made from; a cache
	// that lags behind it (the detector's own claim write, just before)
	// would render an older template, and nothing would queue it again.
	tmpl, err := b.templates.GetFresh(ctx, b.dynamic, template.KeyOfRef(v.Spec.Resource), v.Spec.Resource.ResourceVersion)
	if apierrors.IsNotFound(err) {
		klog.FromContext(ctx).V(2).Info("Template is gone; deleting its binding", "binding", k)
		return b.bindings.Delete(ctx, k)
	}
	if err != nil {
		return err
	}
	stage, err := stagedOf(b.rollouts, b.revisions, k, tmpl)
	if err != nil {
		return err
	}
	policies := b.overridePolicies(tmpl.GetNamespace())
	revise := func(obj *unstructured.Unstructured, replicas int32) (*unstructured.Unstructured, error) {
		return b.interp.ReviseReplicas(ctx, obj, replicas)
	}
	targets := map[string]bool{}
	var failures, written []string
	addon, err := b.addonPass(v, tmpl)
	if err != nil {
		return err
	}
	for _, t := range binding.Targets(v.Spec) {
		targets[t.Name] = true
		cluster, err := b.clusters.Get(t.Name)
		if err != nil || cluster.DeletionTimestamp != nil {
			continue // the scheduler moves the binding off a cluster that is gone or leaving
		}
		src, rev := tmpl, ""
		if stage != nil {
			var placed bool
			if src, rev, placed = stage.template(tmpl, t.Name); !placed {
				continue // the rollout has not given the cluster a revision yet: its Work stays as it is
			}
			markRevision(src, rev)
		}
		manifest, err := render(src, v.Spec, t, revise)
		if err != nil {
			if rerr := b.scripts.Report(ctx, k, tmpl.GroupVersionKind(), configv1alpha1.InterpreterOperationReviseReplica, err); rerr != nil {
				klog.FromContext(ctx).Error(rerr, "Record a failing script", "binding", k)
			}
			return fmt.Errorf("render %s for cluster %s: %w", describe(tmpl), t.Name, err)
		}
		preserved := preservedLabels(v.Spec.GracefulEvictionTasks, t.Name, b.existingWork(t.Name, manifest))
		addPreservedLabels(manifest, preserved)
		applied, err := overridemanager.Apply(manifest, cluster, policies)
		if err != nil {
			failures = append(failures, fmt.Sprintf("cluster %s: %v", t.Name, err))
			continue // write nothing for this cluster
		}
		want, err := desiredWork(v, manifest, t.Name, applied)
		if err != nil {
			return err
		}
		if err := rememberPreserved(want, preserved); err != nil {
			return err
		}
		if rev != "" {
			want.Annotations[rolloutv1alpha1.RevisionAnnotation] = rev
		}
		works := []*workv1alpha1.Work{want}
		if addon != nil {
			if works = addon.expand(ctx, manifest, cluster, want); works == nil {
				continue // the cluster's Works stay as they are
			}
		}
		changed := false
		for _, w := range works {
			c, err := b.writer.Ensure(ctx, w, appliedAnnotations...)
			if err != nil {
				return err
			}
			changed = changed || c
		}
		if changed {
			written = append(written, t.Name)
		}
	}
	if v.Spec.Replicas > 0 {
		if err := b.scripts.Report(ctx, k, tmpl.GroupVersionKind(), configv1alpha1.InterpreterOperationReviseReplica, nil); err != nil {
			return err
		}
	}
	if len(written) > 0 {
		// One Event for the pass, on the template (what kubectl describe
		// shows), naming every cluster written.
		msg := fmt.Sprintf("Wrote the works of clusters %s", strings.Join(written, ", "))
		b.recorders.For(v.Key.String()).Event(v.TemplateRef(), corev1.EventTypeNormal, events.SyncWorkSucceed, msg)
	}
	// A cluster being left gracefully keeps its Work, as it was, until its
	// eviction task is done (the graceful eviction controller decides).
	for _, c := range keptOnEviction(v.Spec.GracefulEvictionTasks) {
		targets[c] = true
	}
	if err := b.removeStaleWorks(ctx, v, targets, addon.wanted()); err != nil {
		return err
	}
	if err := b.setOverrideCondition(ctx, v, failures); err != nil {
		return err
	}
	return addon.finish(b.loop, k)
}

func (b *Controller) overridePolicies(namespace string) overridemanager.Policies {
	var p overridemanager.Policies
	cops, _ := b.cop.List(labels.Everything())
	for _, c := range cops {
		if c.DeletionTimestamp == nil {
			p.Cluster = append(p.Cluster, c)
		}
	}
	if namespace != "" {
		ops, _ := b.op.OverridePolicies(namespace).List(labels.Everything())
		for _, o := range ops {
			if o.DeletionTimestamp == nil {
				p.Namespaced = append(p.Namespaced, o)
			}
		}
	}
	return p
}

// existingWork returns the Work that carries manifest to cluster, nil when
// there is none yet.
func (b *Controller) existingWork(cluster string, manifest *unstructured.Unstructured) *workv1alpha1.Work {
	key := names.ExecutionSpace(cluster) + "/" + names.Work(manifest.GetKind(), manifest.GetName(), manifest.GetNamespace())
	obj, ok, err := b.workInf.GetIndexer().GetByKey(key)
	if err != nil || !ok {
		return nil
	}
	w, _ := obj.(*workv1alpha1.Work)
	return w
}

// worksOf lists the Works derived from a binding.
func (b *Controller) worksOf(v *binding.View) ([]*workv1alpha1.Work, error) {
	return binding.WorksOf(b.workInf, v)
}

// removeStaleWorks deletes the Works of clusters no longer targeted, and
// in a targeted cluster of an add-on those of its Works not wanted there
// (a cluster not in wanted keeps all of its Works).
func (b *Controller) removeStaleWorks(ctx context.Context, v *binding.View, targets map[string]bool, wanted map[string]sets.Set[string]) error {
	works, err := b.worksOf(v)
	if err != nil {
		return err
	}
	for _, w := range works {
		cluster, ok := names.ClusterOf(w.Namespace)
		if !ok || w.DeletionTimestamp != nil {
			continue
		}
		if targets[cluster] {
			if want, ok := wanted[cluster]; !ok || want.Has(w.Name) {
				continue
			}
		}
		if err := b.deleteWork(ctx, w); err != nil {
			return err
		}
		klog.FromContext(ctx).V(2).Info("Removed a work no longer wanted", "binding", v.Key, "cluster", cluster, "work", w.Name)
	}
	return nil
}

func (b *Controller) deleteWork(ctx context.Context, w *workv1alpha1.Work) error {
	err := b.mco.WorkV1alpha1().Works(w.Namespace).Delete(ctx, w.Name, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete work %s/%s: %w", w.Namespace, w.Name, err)
	}
	return nil
}

// finalize deletes a deleted binding's Works and lets the binding go once
// they are gone (their own finalizer withdraws the member objects).
func (b *Controller) finalize(ctx context.Context, v *binding.View) error {
	works, err := b.worksOf(v)
	if err != nil {
		return err
	}
	for _, w := range works {
		if w.DeletionTimestamp == nil {
			if err := b.deleteWork(ctx, w); err != nil {
				return err
			}
		}
	}
	if len(works) > 0 {
		return controller.Retry("%s: %d work(s) still being deleted", v.Key, len(works))
	}
	if !controller.RemoveFinalizer(v.Meta, v.Key.Finalizer()) {
		return nil
	}
	if _, err := b.bindings.Update(ctx, v); err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	return nil
}
