package hpareplicas

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/shared"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/template"
	"github.com/mco-org/mco/pkg/workload"
)

var deploymentGVK = appsv1.SchemeGroupVersion.WithKind("Deployment")

// settleRecheck is how soon a Deployment whose members have not all
// settled is looked at again.
const settleRecheck = 2 * time.Second

// Syncer sets the spec.replicas of Divided Deployments whose members'
// autoscalers own their replicas to the members' sum. Its key is a
// Deployment template.
type Syncer struct {
	dynamic   dynamic.Interface
	templates *template.Resources
	bindings  *binding.Store
	loop      *controller.Controller[template.Key]
}

// NewSyncer builds the replicas syncer: every change of a Deployment
// carrying workload.RetainReplicasLabel (its aggregated status included)
// re-evaluates it.
func NewSyncer(_ context.Context, c *shared.Context) (shared.Runner, error) {
	dr, ok := c.Templates.ByGVK(deploymentGVK)
	if !ok {
		return func(context.Context) error { return nil }, nil
	}
	x := &Syncer{dynamic: c.Dynamic, templates: c.Templates, bindings: c.Bindings}
	x.loop = controller.New("deploymentReplicasSyncer", x.sync, controller.WithBackoff(100*time.Millisecond, 10*time.Second))
	x.loop.WaitFor(c.Templates.HasSynced)
	on := func(obj any) {
		if u, ok := obj.(*unstructured.Unstructured); ok && u.GetLabels()[workload.RetainReplicasLabel] == "true" {
			x.loop.Enqueue(template.KeyOf(u))
		}
	}
	err := c.Templates.OnKind(func(r template.Resource, inf cache.SharedIndexInformer) error {
		if r.GVK != dr.GVK {
			return nil
		}
		_, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: on, UpdateFunc: func(_, obj any) { on(obj) }})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("deployment replicas syncer: %w", err)
	}
	return func(ctx context.Context) error { return x.loop.Run(ctx, c.Workers) }, nil
}

func (x *Syncer) sync(ctx context.Context, k template.Key) error {
	u, err := x.templates.Get(k)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if u.GetLabels()[workload.RetainReplicasLabel] != "true" {
		return nil
	}
	b, err := x.bindings.Get(binding.Key{Namespace: k.Namespace, Name: names.Binding(k.GVK.Kind, k.Name)})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	// Summing the copies of a Duplicated workload would multiply it.
	if p := b.Spec.Placement; p == nil || p.ReplicaScheduling == nil ||
		p.ReplicaScheduling.ReplicaSchedulingType != policyv1alpha1.ReplicaSchedulingTypeDivided {
		return nil
	}
	var d appsv1.Deployment
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &d); err != nil {
		return fmt.Errorf("decode %s: %w", k, err)
	}
	replicas, ok := syncedReplicas(&d)
	if !ok {
		return nil
	}
	if !membersSettled(b.Spec, b.Status, d.Generation) {
		// The binding may trail the template here: look again soon.
		x.loop.EnqueueAfter(k, settleRecheck)
		return nil
	}
	patch, err := json.Marshal(map[string]any{"spec": map[string]any{"replicas": replicas}})
	if err != nil {
		return err
	}
	r, _ := x.templates.ByGVK(k.GVK)
	if _, err := x.dynamic.Resource(r.GVR).Namespace(k.Namespace).Patch(ctx, k.Name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("set replicas of %s: %w", k, err)
	}
	klog.FromContext(ctx).Info("Template replicas follow its members' autoscalers", "template", k, "replicas", replicas)
	return nil
}
