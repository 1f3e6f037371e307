// Package taintpolicy puts the taints of ClusterTaintPolicies on the
// Clusters they target, and takes them off, as the Clusters' status
// conditions change; it also creates mco's default failover policy.
package taintpolicy

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/shared"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	clusterlisters "github.com/mco-org/mco/pkg/generated/listers/cluster/v1alpha1"
	policylisters "github.com/mco-org/mco/pkg/generated/listers/policy/v1alpha1"
)

// Controller is the taint policy controller. Its key is a Cluster name.
type Controller struct {
	mco      mcoclient.Interface
	clusters clusterlisters.ClusterLister
	policies policylisters.ClusterTaintPolicyLister
	now      func() time.Time
	loop     *controller.Controller[string]
}

// New builds the taint policy controller: every change of a Cluster
// re-evaluates it; every change of a policy re-evaluates the Clusters the
// policy targets.
func New(_ context.Context, c *shared.Context) (shared.Runner, error) {
	clusters := c.MCOInformers.Cluster().V1alpha1().Clusters()
	policies := c.MCOInformers.Policy().V1alpha1().ClusterTaintPolicies()
	x := &Controller{mco: c.MCO, clusters: clusters.Lister(), policies: policies.Lister(), now: time.Now}
	x.loop = controller.New("taintPolicy", x.sync, controller.WithBackoff(100*time.Millisecond, 10*time.Second))
	x.loop.WaitFor(clusters.Informer().HasSynced, policies.Informer().HasSynced)
	onCluster := func(obj any) {
		if cl, ok := obj.(*clusterv1alpha1.Cluster); ok {
			x.loop.Enqueue(cl.Name)
		}
	}
	if _, err := clusters.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: onCluster, UpdateFunc: func(_, obj any) { onCluster(obj) },
	}); err != nil {
		return nil, fmt.Errorf("taint policy controller: %w", err)
	}
	// A deleted policy leaves its taints, but the policies that remain may
	// now settle differently, so deletions re-evaluate too.
	onPolicy := func(obj any) {
		if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = t.Obj
		}
		if p, ok := obj.(*policyv1alpha1.ClusterTaintPolicy); ok {
			x.enqueueTargets(p)
		}
	}
	if _, err := policies.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: onPolicy, UpdateFunc: func(_, obj any) { onPolicy(obj) }, DeleteFunc: onPolicy,
	}); err != nil {
		return nil, fmt.Errorf("taint policy controller: %w", err)
	}
	return func(ctx context.Context) error { return x.loop.Run(ctx, c.Workers) }, nil
}

// enqueueTargets queues the Clusters the policy targets.
func (x *Controller) enqueueTargets(p *policyv1alpha1.ClusterTaintPolicy) {
	clusters, err := x.clusters.List(labels.Everything())
	if err != nil {
		return
	}
	for _, cl := range clusters {
		if targets(p, cl) {
			x.loop.Enqueue(cl.Name)
		}
	}
}

// sync brings one Cluster's taints in line with the policies, with at most
// one update; a conflict is retried by the loop with a fresh cache.
func (x *Controller) sync(ctx context.Context, name string) error {
	cached, err := x.clusters.Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("get cluster %s: %w", name, err)
	}
	if cached.DeletionTimestamp != nil {
		return nil
	}
	policies, err := x.policies.List(labels.Everything())
	if err != nil {
		return fmt.Errorf("list cluster taint policies: %w", err)
	}
	taints, changed := decide(cached, policies, x.now())
	if !changed {
		return nil
	}
	c := cached.DeepCopy()
	c.Spec.Taints = taints
	if _, err := x.mco.ClusterV1alpha1().Clusters().Update(ctx, c, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("update taints of cluster %s: %w", name, err)
	}
	klog.FromContext(ctx).Info("Cluster taints follow the taint policies", "cluster", name, "taints", describe(taints))
	return nil
}

// describe renders taints as key=value:effect for logs.
func describe(taints []corev1.Taint) []string {
	out := make([]string, 0, len(taints))
	for _, t := range taints {
		out = append(out, t.ToString())
	}
	return out
}
