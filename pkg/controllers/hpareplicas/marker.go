package hpareplicas

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/shared"
	"github.com/mco-org/mco/pkg/template"
	"github.com/mco-org/mco/pkg/workload"
)

// hpaGVK is the version autoscalers are read in.
var hpaGVK = autoscalingv2.SchemeGroupVersion.WithKind("HorizontalPodAutoscaler")

// Marker keeps workload.RetainReplicasLabel on the scale targets of
// propagated autoscalers, and only on them. Its key is a scale target.
type Marker struct {
	dynamic   dynamic.Interface
	templates *template.Resources
	// hpas are the autoscalers, indexed by the template they scale
	// (scaleTargetIndex).
	hpas cache.Indexer
	loop *controller.Controller[template.Key]
}

// scaleTargetIndex indexes autoscalers by targetIndexKey of their scale
// target.
const scaleTargetIndex = "hpaScaleTarget"

// targetIndexKey names a template in its namespace, whatever its version.
func targetIndexKey(k template.Key) string {
	return k.Namespace + "/" + k.GVK.Group + "/" + k.GVK.Kind + "/" + k.Name
}

// indexByTarget reads an autoscaler's scale target straight from the
// cached object, without converting it.
func indexByTarget(obj any) ([]string, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, nil
	}
	apiVersion, _, _ := unstructured.NestedString(u.Object, "spec", "scaleTargetRef", "apiVersion")
	kind, _, _ := unstructured.NestedString(u.Object, "spec", "scaleTargetRef", "kind")
	name, _, _ := unstructured.NestedString(u.Object, "spec", "scaleTargetRef", "name")
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil || kind == "" || name == "" {
		return nil, nil
	}
	return []string{targetIndexKey(template.Key{GVK: gv.WithKind(kind), Namespace: u.GetNamespace(), Name: name})}, nil
}

// NewMarker builds the scale target marker: a change of an autoscaler
// re-evaluates its old and new targets; a change of a template kind an
// autoscaler may target re-evaluates that template.
func NewMarker(_ context.Context, c *shared.Context) (shared.Runner, error) {
	hr, ok := c.Templates.ByGVK(hpaGVK)
	if !ok {
		return func(context.Context) error { return nil }, nil
	}
	x := &Marker{dynamic: c.Dynamic, templates: c.Templates}
	x.loop = controller.New("hpaScaleTargetMarker", x.sync, controller.WithBackoff(100*time.Millisecond, 10*time.Second))
	x.loop.WaitFor(c.Templates.HasSynced)
	onHPA := func(obj any) {
		if h, err := decodeHPA(obj); err == nil {
			if k, ok := targetOf(h); ok {
				x.loop.Enqueue(k)
			}
		}
	}
	err := c.Templates.OnKind(func(r template.Resource, inf cache.SharedIndexInformer) error {
		var h cache.ResourceEventHandler
		switch {
		case r.GVK == hr.GVK:
			if err := inf.AddIndexers(cache.Indexers{scaleTargetIndex: indexByTarget}); err != nil {
				return fmt.Errorf("index autoscalers by target: %w", err)
			}
			x.hpas = inf.GetIndexer()
			h = cache.ResourceEventHandlerFuncs{
				AddFunc:    onHPA,
				UpdateFunc: func(old, obj any) { onHPA(old); onHPA(obj) },
				DeleteFunc: onHPA,
			}
		case r.GVK.Group == "apps":
			h = cache.ResourceEventHandlerFuncs{
				AddFunc: func(obj any) { x.enqueueTemplate(obj) },
				// Status writes change neither labels nor generation,
				// and cannot change the mark.
				UpdateFunc: func(old, obj any) {
					if markMayChange(old, obj) {
						x.enqueueTemplate(obj)
					}
				},
			}
		default:
			return nil
		}
		_, err := inf.AddEventHandler(h)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("hpa scale target marker: %w", err)
	}
	return func(ctx context.Context) error { return x.loop.Run(ctx, c.Workers) }, nil
}

// markMayChange tells whether a template's update may change its mark:
// its labels or its generation changed.
func markMayChange(old, obj any) bool {
	o, ok1 := old.(metav1.Object)
	n, ok2 := obj.(metav1.Object)
	if !ok1 || !ok2 {
		return true
	}
	return o.GetGeneration() != n.GetGeneration() || !maps.Equal(o.GetLabels(), n.GetLabels())
}

// enqueueTemplate queues a workload template when its mark may be wrong:
// it carries one, or an autoscaler targets it.
func (x *Marker) enqueueTemplate(obj any) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return
	}
	k := template.KeyOf(u)
	if _, has := u.GetLabels()[workload.RetainReplicasLabel]; has {
		x.loop.Enqueue(k)
		return
	}
	if hpas, err := x.hpas.ByIndex(scaleTargetIndex, targetIndexKey(k)); err == nil && len(hpas) > 0 {
		x.loop.Enqueue(k)
	}
}

// sync puts the label on a target or takes it off, with one patch.
func (x *Marker) sync(ctx context.Context, k template.Key) error {
	r, ok := x.templates.ByGVK(k.GVK)
	if !ok {
		return nil
	}
	obj, err := x.templates.Get(k)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	objs, err := x.hpas.ByIndex(scaleTargetIndex, targetIndexKey(k))
	if err != nil {
		return fmt.Errorf("autoscalers of %s: %w", k, err)
	}
	hpas := make([]*autoscalingv2.HorizontalPodAutoscaler, 0, len(objs))
	for _, o := range objs {
		if h, err := decodeHPA(o); err == nil {
			hpas = append(hpas, h)
		}
	}
	want := marked(k, hpas)
	_, has := obj.GetLabels()[workload.RetainReplicasLabel]
	if want == has {
		return nil
	}
	var value any
	if want {
		value = "true"
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"labels": map[string]any{workload.RetainReplicasLabel: value}}})
	if err != nil {
		return err
	}
	if _, err := x.dynamic.Resource(r.GVR).Namespace(k.Namespace).Patch(ctx, k.Name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("mark %s: %w", k, err)
	}
	klog.FromContext(ctx).V(2).Info("Scale target's replicas follow its members' autoscalers", "template", k, "retain", want)
	return nil
}

// decodeHPA reads an autoscaler from the template cache (also from a
// tombstone).
func decodeHPA(obj any) (*autoscalingv2.HorizontalPodAutoscaler, error) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("unexpected %T", obj)
	}
	var h autoscalingv2.HorizontalPodAutoscaler
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &h); err != nil {
		return nil, fmt.Errorf("decode autoscaler %s/%s: %w", u.GetNamespace(), u.GetName(), err)
	}
	return &h, nil
}
