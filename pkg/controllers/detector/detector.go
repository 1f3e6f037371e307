// Package detector binds resource templates to the propagation policies
// that select them: it records the claim on the template and keeps one
// ResourceBinding (ClusterResourceBinding for cluster-scoped templates)
// per claimed template.
package detector

import (
	"context"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/retry"
	"k8s.io/klog/v2"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/shared"
	"github.com/mco-org/mco/pkg/events"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	policylisters "github.com/mco-org/mco/pkg/generated/listers/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/interpreter"
	"github.com/mco-org/mco/pkg/join"
	"github.com/mco-org/mco/pkg/placement"
	"github.com/mco-org/mco/pkg/template"
	"github.com/mco-org/mco/pkg/workload"
)

// Detector is the detector controller.
type Detector struct {
	mco       mcoclient.Interface
	kube      kubernetes.Interface
	dynamic   dynamic.Interface
	templates *template.Resources
	pp        policylisters.PropagationPolicyLister
	cpp       policylisters.ClusterPropagationPolicyLister
	op        policylisters.OverridePolicyLister
	cop       policylisters.ClusterOverridePolicyLister
	bindings  *binding.Store
	loop      *controller.Controller[template.Key]
	policies  *controller.Controller[policyKey]
	recorder  record.EventRecorder
	interp    *interpreter.Interpreter
	scripts   *shared.ScriptReporter
	workers   int
	// activated are the templates a Lazy policy may reach now.
	activated *activations
}

// New builds the detector and registers its informer handlers.
func New(_ context.Context, c *shared.Context) (shared.Runner, error) {
	pp := c.MCOInformers.Policy().V1alpha1().PropagationPolicies()
	cpp := c.MCOInformers.Policy().V1alpha1().ClusterPropagationPolicies()
	op := c.MCOInformers.Policy().V1alpha1().OverridePolicies()
	cop := c.MCOInformers.Policy().V1alpha1().ClusterOverridePolicies()
	d := &Detector{
		mco: c.MCO, kube: c.Kube, dynamic: c.Dynamic, templates: c.Templates,
		pp: pp.Lister(), cpp: cpp.Lister(), op: op.Lister(), cop: cop.Lister(), bindings: c.Bindings, workers: c.Workers, recorder: c.NewRecorder(),
		interp: c.Interpreter, scripts: c.Scripts, activated: newActivations(),
	}
	d.loop = controller.New("detector", d.sync)
	d.policies = controller.New("detector-policy", d.syncPolicy)
	d.loop.WaitFor(pp.Informer().HasSynced, cpp.Informer().HasSynced, op.Informer().HasSynced, cop.Informer().HasSynced)
	d.policies.WaitFor(pp.Informer().HasSynced, cpp.Informer().HasSynced)
	d.loop.WaitFor(c.Templates.HasSynced, c.Customizations.HasSynced)
	d.policies.WaitFor(c.Templates.HasSynced)
	// A kind's replicas are read again when its customizations change.
	c.Customizations.OnChange(d.enqueueKind)
	if err := c.Templates.OnKind(func(r template.Resource, inf cache.SharedIndexInformer) error {
		if _, err := inf.AddEventHandler(d.templateHandler()); err != nil {
			return fmt.Errorf("watch %s: %w", r.GVR, err)
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("detector: %w", err)
	}
	for _, inf := range []cache.SharedIndexInformer{pp.Informer(), cpp.Informer()} {
		if _, err := inf.AddEventHandler(d.policyHandler()); err != nil {
			return nil, fmt.Errorf("watch policies: %w", err)
		}
	}
	for _, inf := range []cache.SharedIndexInformer{op.Informer(), cop.Informer()} {
		if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: d.overrideAdded}); err != nil {
			return nil, fmt.Errorf("watch override policies: %w", err)
		}
	}
	rbs := c.MCOInformers.Work().V1alpha2().ResourceBindings().Informer()
	crbs := c.MCOInformers.Work().V1alpha2().ClusterResourceBindings().Informer()
	for _, inf := range []cache.SharedIndexInformer{rbs, crbs} {
		d.loop.WaitFor(inf.HasSynced)
		if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: d.bindingDeleted}); err != nil {
			return nil, fmt.Errorf("watch bindings: %w", err)
		}
	}
	return d.run, nil
}

func (d *Detector) run(ctx context.Context) error {
	go func() { _ = d.policies.Run(ctx, 1) }()
	return d.loop.Run(ctx, d.workers)
}

// sync claims one template for the policy that selects it and keeps its
// binding, or deletes the binding once the template is gone.
func (d *Detector) sync(ctx context.Context, k template.Key) (err error) {
	if skipped(k) {
		return nil
	}
	cached, err := d.templates.Get(k)
	if apierrors.IsNotFound(err) {
		return d.deleteBinding(ctx, k)
	}
	if err != nil {
		return err
	}
	if serverManaged(cached) {
		return nil
	}
	if by := cached.GetLabels()[networkingv1alpha1.ResourceTemplateClaimedByLabel]; by != "" {
		d.noteClaimedElsewhere(cached, by)
		return nil
	}
	if cached.GetDeletionTimestamp() != nil {
		return d.deleteBinding(ctx, k)
	}
	obj := cached.DeepCopy()
	activated := d.activated.take(k)
	defer func() {
		if err != nil && activated {
			d.activated.mark(k) // tried again with the change still to apply
		}
	}()
	current := claimOf(obj.GetLabels(), obj.GetAnnotations())
	chosen, ok, preempted := choosePolicy(obj, current, d.candidates(obj.GetNamespace()))
	if !ok {
		if current.empty() {
			return nil
		}
		return d.release(ctx, obj)
	}
	if missing := d.missingOverrides(chosen); len(missing) > 0 {
		// Held, unclaimed, until they exist (their creation queues the
		// policy again): no member gets the template without them.
		klog.FromContext(ctx).V(2).Info("Waiting for dependent overrides", "template", k, "policy", claimFor(chosen).String(), "missing", missing)
		return nil
	}
	c := claimFor(chosen)
	if setClaim(obj, c) {
		logger := klog.FromContext(ctx)
		logger.V(2).Info("Claiming template", "template", k, "policy", c.namespace+"/"+c.name, "preempted", preempted)
		if obj, err = d.updateTemplate(ctx, obj); err != nil {
			return err
		}
		if preempted {
			d.recorder.Eventf(obj, corev1.EventTypeNormal, events.PreemptPolicySucceed, "Policy %s preempted policy %s", c, current)
		} else {
			d.recorder.Eventf(obj, corev1.EventTypeNormal, events.ApplyPolicySucceed, "Apply policy %s succeed", c)
		}
	}
	if lazy(chosen) && !activated {
		// The policy reaches the template at its next change.
		return nil
	}
	return d.ensureBinding(ctx, obj, chosen, c)
}

// noteClaimedElsewhere tells, on a template another object propagates (a
// Service its MultiClusterService claims), which policy also selects it
// and is not applied: that object wins, as in Karmada.
func (d *Detector) noteClaimedElsewhere(obj *unstructured.Unstructured, by string) {
	chosen, ok := placement.BestPolicy(obj, d.candidates(obj.GetNamespace()))
	if !ok {
		return
	}
	d.recorder.Eventf(obj, corev1.EventTypeNormal, events.ApplyPolicySkipped,
		"%s selects this %s, which its %s propagates (label %s): the policy is not applied to it",
		claimFor(chosen), obj.GetKind(), by, networkingv1alpha1.ResourceTemplateClaimedByLabel)
}

func (d *Detector) candidates(namespace string) []placement.Candidate {
	var out []placement.Candidate
	if namespace != "" {
		pps, _ := d.pp.PropagationPolicies(namespace).List(labels.Everything())
		for _, p := range pps {
			out = append(out, placement.PropagationPolicyCandidate(p))
		}
	}
	cpps, _ := d.cpp.List(labels.Everything())
	for _, p := range cpps {
		out = append(out, placement.ClusterPropagationPolicyCandidate(p))
	}
	return out
}

func (d *Detector) updateTemplate(ctx context.Context, obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	r, ok := d.templates.ByGVK(obj.GroupVersionKind())
	if !ok {
		return nil, fmt.Errorf("%s is not a template kind", obj.GroupVersionKind())
	}
	client := d.dynamic.Resource(r.GVR).Namespace(obj.GetNamespace())
	out, err := client.Update(ctx, obj, metav1.UpdateOptions{})
	if err != nil {
		return nil, fmt.Errorf("update %s %s/%s: %w", obj.GetKind(), obj.GetNamespace(), obj.GetName(), err)
	}
	return out, nil
}

// ensureBinding creates or updates the template's binding.
func (d *Detector) ensureBinding(ctx context.Context, obj *unstructured.Unstructured, chosen placement.Candidate, c claim) error {
	w, err := d.interpret(ctx, obj)
	if err != nil {
		return fmt.Errorf("%s %s/%s: %w", obj.GetKind(), obj.GetNamespace(), obj.GetName(), err)
	}
	want := desiredSpec(obj, w, policySpec(chosen))
	if want.SchedulePriority, err = d.schedulePriority(ctx, obj, policySpec(chosen), c); err != nil {
		return err
	}
	// Point at the template's last change that matters: mco's own status
	// writes on the template are no reason to touch the binding.
	want.Resource.ResourceVersion = d.templates.EffectiveResourceVersion(obj)
	key := bindingKey(obj)
	// The store shows a binding this process created moments ago even
	// before the informer does.
	v, err := d.bindings.Get(key)
	if apierrors.IsNotFound(err) {
		v = binding.New(key)
		setClaim(v.Meta, c)
		v.Meta.OwnerReferences = []metav1.OwnerReference{binding.OwnerReference(obj)}
		v.Meta.Finalizers = []string{key.Finalizer()} // the binding controller's, set here: one write less
		*v.Spec = want
		if _, err := d.bindings.Create(ctx, v); apierrors.IsAlreadyExists(err) {
			return controller.Retry("%s appeared while creating it", key)
		} else if err != nil {
			return err
		}
		klog.FromContext(ctx).V(2).Info("Created binding", "binding", key)
		return nil
	}
	if err != nil {
		return fmt.Errorf("get %s: %w", key, err)
	}
	if v.Meta.DeletionTimestamp != nil {
		return controller.Retry("%s is being deleted", key)
	}
	changed := setClaim(v.Meta, c)
	changed = binding.SetOwner(v.Meta, binding.OwnerReference(obj)) || changed
	changed = binding.MergePolicyFields(v.Spec, want) || changed
	if !changed {
		return nil
	}
	_, err = d.bindings.Update(ctx, v)
	return err
}

// release removes the claim from a template no policy selects any more,
// and from its binding; the binding and what was propagated stay. The
// binding goes first: a deleted policy finds its templates by their claim,
// so a template released before a binding write that failed would leave
// that binding claimed for good, while a failed template write after it is
// found and retried. A binding write refused because the cache lagged (the
// status controllers write bindings too) is made again on the server's
// copy, unless the binding has changed hands by then (another policy
// claimed the template meanwhile) or was released already.
func (d *Detector) release(ctx context.Context, obj *unstructured.Unstructured) error {
	if err := d.releaseBinding(ctx, bindingKey(obj)); err != nil {
		return err
	}
	if setClaim(obj, claim{}) {
		if _, err := d.updateTemplate(ctx, obj); err != nil {
			return err
		}
	}
	return nil
}

// releaseBinding removes the claim a binding carries, as first read.
func (d *Detector) releaseBinding(ctx context.Context, key binding.Key) error {
	var released *claim // the binding's claim as first read, from the cache
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var v *binding.View
		var err error
		if released == nil {
			v, err = d.bindings.Get(key)
		} else {
			v, err = d.bindings.GetLive(ctx, key)
		}
		if err != nil {
			return err
		}
		c := claimOf(v.Meta.GetLabels(), v.Meta.GetAnnotations())
		if released == nil {
			released = &c
		} else if c != *released {
			return nil
		}
		if !setClaim(v.Meta, claim{}) {
			return nil
		}
		_, err = d.bindings.Update(ctx, v)
		return err
	})
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// deleteBinding deletes the binding of a template that is gone.
func (d *Detector) deleteBinding(ctx context.Context, k template.Key) error {
	key := bindingKey(keyObject(k))
	v, err := d.bindings.Get(key)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	r := v.Spec.Resource
	if r.Kind != k.GVK.Kind || r.Name != k.Name || v.Meta.DeletionTimestamp != nil {
		return nil
	}
	if err := d.bindings.Delete(ctx, key); err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	klog.FromContext(ctx).V(2).Info("Deleted the binding of a deleted template", "template", k, "binding", key)
	return nil
}

func keyObject(k template.Key) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(k.GVK)
	u.SetNamespace(k.Namespace)
	u.SetName(k.Name)
	return u
}

// interpret reads a template's replicas, reporting a failing script on the
// template (its binding may not exist yet) and on its binding.
func (d *Detector) interpret(ctx context.Context, obj *unstructured.Unstructured) (workload.Interpretation, error) {
	op := configv1alpha1.InterpreterOperationInterpretReplica
	if d.interp.Customized(obj.GroupVersionKind(), configv1alpha1.InterpreterOperationInterpretComponent) {
		op = configv1alpha1.InterpreterOperationInterpretComponent
	}
	w, err := d.interp.Interpret(ctx, obj)
	if se := interpreter.AsScriptError(err); se != nil {
		op = se.Operation
		d.recorder.Event(obj, corev1.EventTypeWarning, shared.ScriptFailedReason(op), se.Error())
	}
	if rerr := d.scripts.Report(ctx, bindingKey(obj), obj.GroupVersionKind(), op, err); rerr != nil && err == nil {
		return w, rerr
	}
	return w, err
}

// skipped tells whether a template is never propagated, whatever a policy
// selects: those in skipped namespaces, and Kubernetes' system
// PriorityClasses, which every cluster has of its own (a policy selecting
// PriorityClasses by kind would otherwise fight each member's copy).
func skipped(k template.Key) bool {
	if k.GVK.Group == "scheduling.k8s.io" && k.GVK.Kind == "PriorityClass" && strings.HasPrefix(k.Name, "system-") {
		return true
	}
	return skippedNamespace(k.Namespace)
}

// automanagedLabel marks the APIServices the aggregator keeps for the API
// groups served locally; every member has its own.
const automanagedLabel = "kube-aggregator.kubernetes.io/automanaged"

// serverManaged tells whether mco keeps the object for itself (a local
// APIService, a staged rollout's ControllerRevision), so that no policy
// propagates it.
func serverManaged(obj metav1.Object) bool {
	for _, l := range []string{automanagedLabel, rolloutv1alpha1.RolloutLabel} {
		if _, ok := obj.GetLabels()[l]; ok {
			return true
		}
	}
	return false
}

// skippedNamespace tells whether templates in the namespace are never
// propagated, whatever a policy selects: mco's own (karmada-system,
// karmada-cluster with member credentials and Cluster leases,
// karmada-es-* with Works) and Kubernetes' (kube-*), as in Karmada.
func skippedNamespace(ns string) bool {
	return ns == "karmada-system" || ns == join.Namespace ||
		strings.HasPrefix(ns, clusterv1alpha1.ExecutionSpacePrefix) || strings.HasPrefix(ns, "kube-")
}
