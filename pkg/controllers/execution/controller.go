// Package execution is the push syncer: it applies each Work to its member
// cluster with server-side apply and withdraws the objects when the Work
// goes. Every member has its own queue, so an unreachable member delays
// only its own Works.
package execution

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/shared"
	"github.com/mco-org/mco/pkg/controllers/workstatus"
	"github.com/mco-org/mco/pkg/events"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	clusterlisters "github.com/mco-org/mco/pkg/generated/listers/cluster/v1alpha1"
	worklisters "github.com/mco-org/mco/pkg/generated/listers/work/v1alpha1"
	"github.com/mco-org/mco/pkg/interpreter"
	"github.com/mco-org/mco/pkg/mcs"
	"github.com/mco-org/mco/pkg/member"
	"github.com/mco-org/mco/pkg/metrics"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/template"
)

// namespaceRetry is how long a Work whose namespace cannot take it in its
// member waits before it is tried again.
const namespaceRetry = 10 * time.Second

// Reasons of the Work's Applied condition.
const (
	ReasonAppliedSuccessful = "AppliedSuccessful"
	ReasonAppliedFailed     = "AppliedFailed"
	ReasonConflict          = "ConflictAbort"
	ReasonSuspended         = "SuspendDispatching"
)

// Controller is the execution controller.
type Controller struct {
	mco      mcoclient.Interface
	works    worklisters.WorkLister
	clusters clusterlisters.ClusterLister
	// namespaces is nil in mco-agent, which does not read mco's
	// namespaces: the Works of its execution namespace stand in for them.
	namespaces corelisters.NamespaceLister
	held       *shared.HeldStatuses
	members    member.Source
	metrics    *metrics.ControllerManager
	recorders  *events.Sharded
	interp     *interpreter.Interpreter
	// templates and dynamic ask mco-apiserver which dropped fields are its
	// own defaults (nil in mco-agent, which does not write templates).
	templates *template.Resources
	dynamic   dynamic.Interface
	scripts   *shared.ScriptReporter
	synced    []cache.InformerSynced
	workers   int

	drift *driftWatch

	mu     sync.Mutex
	ctx    context.Context
	queues map[string]*controller.Controller[string]
}

// New builds the execution controller.
func New(_ context.Context, c *shared.Context) (shared.Runner, error) {
	works := c.MCOInformers.Work().V1alpha1().Works()
	clusters := c.MCOInformers.Cluster().V1alpha1().Clusters()
	e := &Controller{
		mco: c.MCO, works: works.Lister(), clusters: clusters.Lister(),
		members: c.Members, metrics: c.Metrics, recorders: events.NewSharded(events.Shards, c.NewRecorder),
		interp: c.Interpreter, scripts: c.Scripts, held: c.HeldWorkStatuses, templates: c.Templates, dynamic: c.Dynamic,
		synced:  []cache.InformerSynced{works.Informer().HasSynced, clusters.Informer().HasSynced, c.Customizations.HasSynced},
		workers: 2, queues: map[string]*controller.Controller[string]{},
	}
	if c.Namespaces != nil {
		namespaces := c.Namespaces.Core().V1().Namespaces()
		e.namespaces = namespaces.Lister()
		e.synced = append(e.synced, namespaces.Informer().HasSynced)
	}
	e.drift = newDriftWatch(e.enqueueKey)
	c.Members.OnChange(e.drift.forgetCluster)
	_, err := works.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: e.enqueue,
		UpdateFunc: func(oldObj, newObj any) {
			o, n := oldObj.(*workv1alpha1.Work), newObj.(*workv1alpha1.Work)
			if o.Generation != n.Generation || n.DeletionTimestamp != nil {
				e.enqueue(newObj)
			}
		},
	})
	if err != nil {
		return nil, fmt.Errorf("execution controller: %w", err)
	}
	if _, err := clusters.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{UpdateFunc: e.clusterUpgraded}); err != nil {
		return nil, fmt.Errorf("execution controller: %w", err)
	}
	return e.run, nil
}

func (e *Controller) run(ctx context.Context) error {
	if !cache.WaitForCacheSync(ctx.Done(), e.synced...) {
		return nil
	}
	e.mu.Lock()
	e.ctx = ctx
	for _, q := range e.queues {
		go e.runQueue(ctx, q)
	}
	e.mu.Unlock()
	<-ctx.Done()
	return nil
}

func (e *Controller) runQueue(ctx context.Context, q *controller.Controller[string]) {
	if err := q.Run(ctx, e.workers); err != nil {
		klog.FromContext(ctx).Error(err, "Execution queue stopped", "queue", q.Name())
	}
}

// enqueue puts a Work on its member's queue.
func (e *Controller) enqueue(obj any) {
	w, ok := obj.(*workv1alpha1.Work)
	if !ok {
		return
	}
	if cluster, ok := names.ClusterOf(w.Namespace); ok {
		e.enqueueKey(cluster, w.Name)
	}
}

// enqueueKey puts a Work on its member's queue, creating the queue on
// first use.
func (e *Controller) enqueueKey(cluster, name string) {
	e.queue(cluster).Enqueue(name)
}

// enqueueAfter puts a Work on its member's queue after a pause.
func (e *Controller) enqueueAfter(cluster, name string, d time.Duration) {
	e.queue(cluster).EnqueueAfter(name, d)
}

// namespaceRule decides what may be done in namespace ns (empty for a
// cluster-scoped manifest) of cluster from its state on mco.
func (e *Controller) namespaceRule(cluster, ns string) namespaceRule {
	if ns == "" {
		return applyCreating
	}
	if e.namespaces == nil {
		w, err := e.works.Works(names.ExecutionSpace(cluster)).Get(names.Work("Namespace", ns, ""))
		if err != nil {
			w = nil
		}
		return ruleFromWork(w)
	}
	got, err := e.namespaces.Get(ns)
	if err != nil {
		return ruleFor(nil)
	}
	return ruleFor(got)
}

// queue returns a member's queue, creating it on first use.
func (e *Controller) queue(cluster string) *controller.Controller[string] {
	e.mu.Lock()
	q, ok := e.queues[cluster]
	if !ok {
		q = controller.New("execution-"+cluster, func(ctx context.Context, name string) error {
			return e.sync(ctx, cluster, name)
		}, controller.WithBackoff(100*time.Millisecond, time.Minute))
		e.queues[cluster] = q
		if e.ctx != nil {
			go e.runQueue(e.ctx, q)
		}
	}
	e.mu.Unlock()
	return q
}

// sync applies one Work to its cluster, or withdraws it.
func (e *Controller) sync(ctx context.Context, cluster, name string) error {
	cached, err := e.works.Works(names.ExecutionSpace(cluster)).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if mcs.NotForMember(cached) {
		return nil // data between mco and an agent, never applied
	}
	w := cached.DeepCopy()
	if !e.members.Reaches(cluster) {
		return e.release(ctx, cluster, w)
	}
	if w.DeletionTimestamp != nil {
		return e.withdraw(ctx, cluster, w)
	}
	if controller.AddFinalizer(w, workv1alpha1.ExecutionControllerFinalizer) {
		if w, err = e.mco.WorkV1alpha1().Works(w.Namespace).Update(ctx, w, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("add finalizer to work %s/%s: %w", cached.Namespace, name, err)
		}
	}
	if s := w.Spec.SuspendDispatching; s != nil && *s {
		return e.setApplied(ctx, w, metav1.ConditionFalse, ReasonSuspended, "Dispatching is suspended; the member keeps what it had.")
	}
	clients, err := e.members.Get(cluster)
	if err != nil {
		_ = e.setApplied(ctx, w, metav1.ConditionFalse, ReasonAppliedFailed, err.Error())
		return err
	}
	manifests, err := decodeManifests(w)
	if err != nil {
		return e.setApplied(ctx, w, metav1.ConditionFalse, ReasonAppliedFailed, err.Error())
	}
	defaultNamespaces(clients, w, manifests)
	before := e.appliedBefore(cached)
	statuses := make([]workv1alpha1.ManifestStatus, 0, len(manifests))
	var dropped []string
	for i, m := range manifests {
		res, err := applyManifest(ctx, clients, e.drift, e.interp, w, m, e.namespaceRule(cluster, m.GetNamespace()))
		if owner, ok := binding.OwnerOf(w); ok && interpreter.AsScriptError(err) != nil {
			if rerr := e.scripts.Report(ctx, owner, m.GroupVersionKind(), configv1alpha1.InterpreterOperationRetain, err); rerr != nil {
				klog.FromContext(ctx).Error(rerr, "Record a failing script", "work", w.Namespace+"/"+w.Name)
			}
		}
		var conflict *errConflict
		if errors.As(err, &conflict) {
			return e.setApplied(ctx, w, metav1.ConditionFalse, ReasonConflict, conflict.msg)
		}
		var unavailable *errNamespaceUnavailable
		if errors.As(err, &unavailable) {
			// Not a failure to back off from: the Work waits, or (its
			// namespace leaving mco) is about to go with its template.
			if unavailable.retry {
				e.enqueueAfter(cluster, name, namespaceRetry)
			}
			return e.setApplied(ctx, w, metav1.ConditionFalse, ReasonNamespaceUnavailable, err.Error())
		}
		e.count(res.created, m.GetAPIVersion(), m.GetKind(), cluster, err)
		var unknown *errFieldsUnknown
		if errors.As(err, &unknown) {
			// Applying the same again would be refused the same way.
			return e.setApplied(ctx, w, metav1.ConditionFalse, ReasonFieldsUnknown, refusedMessage(cluster, e.clusterVersion(cluster), unknown))
		}
		if err != nil {
			_ = e.setApplied(ctx, w, metav1.ConditionFalse, ReasonAppliedFailed, err.Error())
			return err
		}
		e.drift.record(cluster, res.gvr, res.object)
		e.drift.watch(clients, res.gvr)
		if len(res.dropped) > 0 {
			res.dropped = e.userFields(ctx, m, res.dropped)
		}
		if len(res.dropped) > 0 {
			dropped = append(dropped, droppedNote(m, res.dropped))
		}
		if owner, ok := binding.OwnerOf(w); ok && res.retained {
			if err := e.scripts.Report(ctx, owner, m.GroupVersionKind(), configv1alpha1.InterpreterOperationRetain, nil); err != nil {
				return err
			}
		}
		gvk := m.GroupVersionKind()
		// Failures to read status or health are for the work status
		// controller to report; here the status is recorded as far as it
		// goes.
		st, _ := workstatus.ManifestStatus(ctx, e.interp, res.object, m, workv1alpha1.ResourceIdentifier{Ordinal: i, Group: gvk.Group, Version: gvk.Version,
			Kind: gvk.Kind, Resource: res.gvr.Resource, Namespace: m.GetNamespace(), Name: m.GetName()})
		statuses = append(statuses, st)
	}
	if err := e.prune(ctx, clients, w, before, manifests); err != nil {
		_ = e.setApplied(ctx, w, metav1.ConditionFalse, ReasonAppliedFailed, err.Error())
		return err
	}
	// The member's answer to the apply carries its status: record it in the
	// same write as Applied, so a Work costs one status write when nothing
	// changes afterwards. A workload still on its way is left to the work
	// status controller, which writes it with the member's next changes.
	w.Status.ManifestStatuses = statuses
	meta.SetStatusCondition(&w.Status.Conditions, workstatus.AvailableCondition(statuses, w.Generation))
	var degraded *metav1.Condition
	if len(dropped) > 0 {
		degraded = degradedCondition(cluster, e.clusterVersion(cluster), dropped, w.Generation)
	}
	if setDegraded(&w.Status, degraded) && len(manifests) > 0 {
		e.recordDropped(ctx, w, manifests[0], degraded)
	}
	return e.setApplied(ctx, w, metav1.ConditionTrue, ReasonAppliedSuccessful, "Manifest applied to the member cluster.")
}

// hold leaves a successful apply's status, on its way to settling, to the
// work status controller; false when it is to be written here.
func (e *Controller) hold(cached, w *workv1alpha1.Work, c metav1.Condition) bool {
	if c.Status != metav1.ConditionTrue || cached == nil || workstatus.Urgent(&cached.Status, &w.Status) {
		return false
	}
	return e.held.Hold(types.NamespacedName{Namespace: w.Namespace, Name: w.Name}, w.Generation, &w.Status)
}

func (e *Controller) count(created bool, apiVersion, kind, cluster string, err error) {
	if created {
		e.metrics.CreateResourceToCluster.WithLabelValues(metrics.Result(err), apiVersion, kind, cluster, "false").Inc()
		return
	}
	e.metrics.UpdateResourceToCluster.WithLabelValues(metrics.Result(err), apiVersion, kind, cluster).Inc()
}

// setApplied records the Applied condition when it changed: at once, or
// (a workload on its way) through the work status controller.
func (e *Controller) setApplied(ctx context.Context, w *workv1alpha1.Work, status metav1.ConditionStatus, reason, msg string) error {
	c := metav1.Condition{Type: workv1alpha1.WorkApplied, Status: status, Reason: reason, Message: msg, ObservedGeneration: w.Generation}
	changed := meta.SetStatusCondition(&w.Status.Conditions, c)
	cached, err := e.works.Works(w.Namespace).Get(w.Name)
	if err != nil {
		cached = nil
	}
	if cached != nil && !changed && apiequality.Semantic.DeepEqual(cached.Status, w.Status) {
		return nil
	}
	if held, ok := e.held.Get(types.NamespacedName{Namespace: w.Namespace, Name: w.Name}); ok && held.Generation == w.Generation &&
		sameCondition(meta.FindStatusCondition(held.Status.Conditions, workv1alpha1.WorkApplied), c) {
		changed = false // held already, and told
	}
	if e.hold(cached, w, c) {
		if changed {
			e.recordApplied(w, c)
		}
		return nil
	}
	e.held.Drop(types.NamespacedName{Namespace: w.Namespace, Name: w.Name})
	if _, err := e.mco.WorkV1alpha1().Works(w.Namespace).UpdateStatus(ctx, w, metav1.UpdateOptions{}); err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("update status of work %s/%s: %w", w.Namespace, w.Name, err)
	}
	e.recordApplied(w, c)
	return nil
}

// sameCondition compares what a condition says (times apart).
func sameCondition(a *metav1.Condition, b metav1.Condition) bool {
	return a != nil && a.Status == b.Status && a.Reason == b.Reason && a.Message == b.Message && a.ObservedGeneration == b.ObservedGeneration
}

// recordApplied tells the template's users, once per change, what went
// wrong or was held back in the Work's cluster. Success is told once for
// all clusters, by the binding controller's SyncSucceed; the Work's
// Applied condition says it per cluster.
func (e *Controller) recordApplied(w *workv1alpha1.Work, c metav1.Condition) {
	if c.Status == metav1.ConditionTrue {
		return
	}
	manifests, err := decodeManifests(w)
	if err != nil || len(manifests) == 0 {
		return
	}
	m := manifests[0]
	if m.GetAnnotations()[workv1alpha1.ResourceTemplateUIDAnnotation] == "" {
		return // not a template's (an add-on's objects): nothing on mco to tell
	}
	cluster, _ := names.ClusterOf(w.Namespace)
	ref := events.Ref(m.GetAPIVersion(), m.GetKind(), m.GetNamespace(), m.GetName(),
		types.UID(m.GetAnnotations()[workv1alpha1.ResourceTemplateUIDAnnotation]))
	recorder := e.recorders.For(ref.Namespace + "/" + ref.Name)
	if c.Reason == ReasonSuspended {
		recorder.Eventf(ref, corev1.EventTypeNormal, events.WorkDispatching, "Dispatching to cluster %s is suspended", cluster)
		return
	}
	recorder.Eventf(ref, corev1.EventTypeWarning, events.SyncWorkFailed, "Apply to cluster %s failed (%s): %s", cluster, c.Reason, c.Message)
}
