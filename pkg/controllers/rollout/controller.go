// Package rollout stages template changes across waves of clusters: for
// each binding whose template a RolloutPolicy governs, it keeps the
// template's revisions as ControllerRevisions and a Rollout record whose
// status gives each cluster its revision, which the binding controller
// renders. The decisions themselves are pkg/rollout's.
package rollout

import (
	"context"
	"fmt"
	"strconv"
	"time"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/cache"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/shared"
	"github.com/mco-org/mco/pkg/events"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	clusterlisters "github.com/mco-org/mco/pkg/generated/listers/cluster/v1alpha1"
	rolloutlisters "github.com/mco-org/mco/pkg/generated/listers/rollout/v1alpha1"
	worklisters "github.com/mco-org/mco/pkg/generated/listers/work/v1alpha1"
	"github.com/mco-org/mco/pkg/metrics"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/rollout"
	"github.com/mco-org/mco/pkg/template"
)

// Controller is the rollout controller.
type Controller struct {
	mco       mcoclient.Interface
	kube      kubernetes.Interface
	dynamic   dynamic.Interface
	bindings  *binding.Store
	templates *template.Resources
	policies  policies
	rollouts  rolloutlisters.RolloutLister
	own       *controller.OwnWrites // the Rollouts informer's store and this controller's writes
	revisions appslisters.ControllerRevisionLister
	works     worklisters.WorkLister
	clusters  clusterlisters.ClusterLister
	recorders *events.Sharded
	metrics   *metrics.ControllerManager
	loop      *controller.Controller[binding.Key]
	// policyLoop counts each policy's rollouts into its status.
	policyLoop *controller.Controller[rolloutv1alpha1.PolicyReference]
	workers    int
	now        func() time.Time
	// template reads a template from the cache (templates.Get).
	template func(template.Key) (*unstructured.Unstructured, error)
}

// ownRolloutsSize is how many of its own Rollout writes the controller
// remembers until the informer shows them.
const ownRolloutsSize = 4096

// New builds the rollout controller.
func New(_ context.Context, c *shared.Context) (shared.Runner, error) {
	inf := c.MCOInformers
	rbs := inf.Work().V1alpha2().ResourceBindings().Informer()
	crbs := inf.Work().V1alpha2().ClusterResourceBindings().Informer()
	rps := inf.Rollout().V1alpha1().RolloutPolicies()
	crps := inf.Rollout().V1alpha1().ClusterRolloutPolicies()
	rollouts := inf.Rollout().V1alpha1().Rollouts()
	works := inf.Work().V1alpha1().Works()
	clusters := inf.Cluster().V1alpha1().Clusters()
	revisions := c.Revisions.Apps().V1().ControllerRevisions()
	r := &Controller{
		mco: c.MCO, kube: c.Kube, dynamic: c.Dynamic, bindings: c.Bindings, templates: c.Templates,
		policies: policies{namespaced: rps.Lister(), cluster: crps.Lister()},
		rollouts: rollouts.Lister(), revisions: revisions.Lister(), works: works.Lister(), clusters: clusters.Lister(),
		recorders: events.NewSharded(events.Shards, c.NewRecorder), metrics: c.Metrics, workers: c.Workers, now: time.Now,
		template: c.Templates.Get,
	}
	var err error
	if r.own, err = controller.NewOwnWrites(rollouts.Informer(), ownRolloutsSize); err != nil {
		return nil, fmt.Errorf("rollout controller: %w", err)
	}
	r.loop = controller.New("rollout", r.sync)
	r.policyLoop = controller.New("rollout-policy-status", r.syncPolicy)
	r.policyLoop.WaitFor(rps.Informer().HasSynced, crps.Informer().HasSynced, rollouts.Informer().HasSynced)
	onRollout, onPolicy := r.policyHandlers()
	r.loop.WaitFor(rbs.HasSynced, crbs.HasSynced, rps.Informer().HasSynced, crps.Informer().HasSynced,
		rollouts.Informer().HasSynced, works.Informer().HasSynced, clusters.Informer().HasSynced,
		revisions.Informer().HasSynced, c.Templates.HasSynced)
	handlers := []struct {
		inf cache.SharedIndexInformer
		h   cache.ResourceEventHandler
	}{
		{rbs, r.bindingHandler()},
		{crbs, r.bindingHandler()},
		{rps.Informer(), r.policyHandler()},
		{crps.Informer(), r.policyHandler()},
		{rollouts.Informer(), r.rolloutHandler()},
		{works.Informer(), r.workHandler()},
		{rollouts.Informer(), onRollout},
		{rps.Informer(), onPolicy},
		{crps.Informer(), onPolicy},
	}
	for _, x := range handlers {
		if _, err := x.inf.AddEventHandler(x.h); err != nil {
			return nil, fmt.Errorf("rollout controller: %w", err)
		}
	}
	// An Addon's health in each cluster is its status, written by the
	// add-on controller once its Works are.
	if err := c.Templates.OnKind(func(res template.Resource, inf cache.SharedIndexInformer) error {
		if !template.IsAddon(res.GVK) {
			return nil
		}
		_, err := inf.AddEventHandler(r.addonHandler())
		return err
	}); err != nil {
		return nil, fmt.Errorf("rollout controller: %w", err)
	}
	return func(ctx context.Context) error {
		go func() { _ = r.policyLoop.Run(ctx, 1) }()
		return r.loop.Run(ctx, r.workers)
	}, nil
}

// sync decides the rollout of one binding's template.
func (r *Controller) sync(ctx context.Context, k binding.Key) error {
	v, err := r.bindings.Get(k)
	if apierrors.IsNotFound(err) {
		return r.forget(ctx, k)
	}
	if err != nil {
		return err
	}
	if v.Meta.DeletionTimestamp != nil || !r.policies.any(k.Namespace) {
		return r.forget(ctx, k)
	}
	tmpl, err := r.templates.GetFresh(ctx, r.dynamic, template.KeyOfRef(v.Spec.Resource), v.Spec.Resource.ResourceVersion)
	if apierrors.IsNotFound(err) {
		return r.forget(ctx, k)
	}
	if err != nil {
		return err
	}
	spec, ref, ok := r.policies.governing(tmpl)
	if !ok {
		return r.forget(ctx, k)
	}
	content := rollout.Content(tmpl)
	ns := rollout.RecordNamespace(k.Namespace)
	rev, err := r.ensureRevision(ctx, ns, k.Name, content)
	if err != nil {
		return err
	}
	ro, err := r.ensureRollout(ctx, ns, k.Name, v.Spec.Resource)
	if err != nil {
		return err
	}
	in, err := r.input(v, tmpl, spec, ro, rev, rollout.ChangeCause(content))
	if err != nil {
		return err
	}
	d := rollout.Decide(in)
	d.Status.Policy = ref
	d.Status.ObservedGeneration = ro.Generation
	if err := r.writeStatus(ctx, ro, d.Status); err != nil {
		return err
	}
	r.record(v, ro, d)
	r.observe(ro, d)
	if d.RollbackTo != 0 {
		decided := ro.DeepCopy()
		decided.Status = d.Status
		if err := r.rollBack(ctx, decided, tmpl, d.RollbackTo, "onFailure: Rollback"); err != nil {
			return err
		}
	}
	if err := r.prune(ctx, ns, k.Name, rollout.InUse(&d.Status)); err != nil {
		return err
	}
	if d.After > 0 {
		r.loop.EnqueueAfter(k, d.After)
	}
	return nil
}

// input gathers what a decision reads.
func (r *Controller) input(v *binding.View, tmpl *unstructured.Unstructured, spec *rolloutv1alpha1.RolloutPolicySpec,
	ro *rolloutv1alpha1.Rollout, rev int64, changeCause string) (rollout.Input, error) {
	var members []rollout.Member
	observed := map[string]rollout.Observation{}
	gvk := tmpl.GroupVersionKind()
	for _, t := range binding.Targets(v.Spec) {
		m := rollout.Member{Name: t.Name}
		if c, err := r.clusters.Get(t.Name); err == nil {
			m.Labels = c.Labels
		}
		members = append(members, m)
		if template.IsAddon(gvk) {
			observed[t.Name] = rollout.ObserveAddon(addonCluster(tmpl, t.Name))
			continue
		}
		w, err := r.works.Works(names.ExecutionSpace(t.Name)).Get(names.Work(tmpl.GetKind(), tmpl.GetName(), tmpl.GetNamespace()))
		if err != nil && !apierrors.IsNotFound(err) {
			return rollout.Input{}, err
		}
		if err != nil {
			w = nil
		}
		observed[t.Name] = rollout.Observe(w, gvk, spec.HealthCheck)
	}
	waves, err := rollout.ResolveWaves(spec.Waves, members)
	if err != nil {
		return rollout.Input{}, err
	}
	s := spec.DeepCopy()
	s.SetDefaults()
	return rollout.Input{
		Now: r.now(), Spec: ro.Spec, Status: ro.Status, Waves: waves, Target: rev, ChangeCause: changeCause,
		Timeout: s.HealthCheck.Timeout.Duration, OnFailure: s.OnFailure, Held: dispatchingSuspended(v.Spec),
		Observed: observed, HistoryLimit: int(*s.RevisionHistoryLimit),
	}, nil
}

// dispatchingSuspended tells whether the binding's dispatching is
// suspended everywhere.
func dispatchingSuspended(spec *workv1alpha2.ResourceBindingSpec) bool {
	s := spec.Suspension
	return s != nil && s.Dispatching != nil && *s.Dispatching
}

// writeStatus writes the Rollout's status when it changed.
func (r *Controller) writeStatus(ctx context.Context, ro *rolloutv1alpha1.Rollout, st rolloutv1alpha1.RolloutStatus) error {
	if apiequality.Semantic.DeepEqual(ro.Status, st) {
		return nil
	}
	out := ro.DeepCopy()
	out.Status = st
	written, err := r.mco.RolloutV1alpha1().Rollouts(ro.Namespace).UpdateStatus(ctx, out, metav1.UpdateOptions{})
	if err != nil {
		return fmt.Errorf("update status of rollout %s/%s: %w", ro.Namespace, ro.Name, err)
	}
	r.own.Wrote(written)
	return nil
}

// record turns a decision's events into Events on the template and the
// Rollout.
func (r *Controller) record(v *binding.View, ro *rolloutv1alpha1.Rollout, d rollout.Decision) {
	rec := r.recorders.For(v.Key.String())
	for _, e := range d.Events {
		typ := "Normal"
		if e.Warning {
			typ = "Warning"
		}
		rec.Event(v.TemplateRef(), typ, e.Reason, e.Message)
		rec.Event(ro, typ, e.Reason, e.Message)
	}
}

// observe feeds the rollout metrics from a decision; ro holds the status
// before it.
func (r *Controller) observe(ro *rolloutv1alpha1.Rollout, d rollout.Decision) {
	for _, w := range d.Waves {
		r.metrics.RolloutWaveDuration.WithLabelValues(w.Result).Observe(w.Duration.Seconds())
	}
	for _, o := range d.Outcomes {
		r.metrics.Rollouts.WithLabelValues(o).Inc()
	}
	// The series of revisions the status held before and no longer does
	// go; scanning every series of every rollout on each sync would cost
	// as much as there are rollouts.
	counts := map[int64]int{}
	for _, c := range d.Status.Clusters {
		counts[c.Revision]++
	}
	for _, c := range ro.Status.Clusters {
		if _, ok := counts[c.Revision]; !ok {
			r.metrics.RolloutClusters.DeleteLabelValues(ro.Namespace, ro.Name, strconv.FormatInt(c.Revision, 10))
		}
	}
	for rev, n := range counts {
		r.metrics.RolloutClusters.WithLabelValues(ro.Namespace, ro.Name, strconv.FormatInt(rev, 10)).Set(float64(n))
	}
}

// templateOf is the template ref names from the cache; nil when the cache
// does not hold it.
func (r *Controller) templateOf(ref workv1alpha2.ObjectReference) *unstructured.Unstructured {
	tmpl, err := r.template(template.KeyOfRef(ref))
	if err != nil {
		return nil
	}
	return tmpl
}
