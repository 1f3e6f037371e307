package namespace

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/mco-org/mco/pkg/controller"
)

// errContentRemains asks for a retry while objects are still being deleted.
var errContentRemains = controller.Retry("namespace still has content")

// deletePage bounds each list and delete of a namespace's content: the
// objects of one request are deleted one by one inside the server, and a
// namespace may hold thousands of one kind (Events).
const deletePage = 500

// recheckMax bounds the wait between two passes over a namespace whose
// content is still being deleted (held by finalizers, e.g. bindings until
// the members' copies are gone).
const recheckMax = 5 * time.Second

// Controller empties Terminating namespaces and completes their deletion.
type Controller struct {
	kube      kubernetes.Interface
	metadata  metadata.Interface
	discovery discovery.DiscoveryInterface
	lister    corelisters.NamespaceLister
	informers informers.SharedInformerFactory
	loop      *controller.Controller[string]
}

// New builds the controller over a loopback client configuration.
func New(cfg *rest.Config, inf informers.SharedInformerFactory) (*Controller, error) {
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("namespace controller client: %w", err)
	}
	// Only names and deletion marks are read: the metadata client lists
	// PartialObjectMetadata (protobuf) rather than whole objects as JSON.
	meta, err := metadata.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("namespace controller metadata client: %w", err)
	}
	nsInformer := inf.Core().V1().Namespaces()
	c := &Controller{
		kube:      kube,
		metadata:  meta,
		discovery: kube.Discovery(),
		lister:    nsInformer.Lister(),
		informers: inf,
	}
	// A namespace whose content is still going is looked at again at most
	// recheckMax later: a pass lists metadata only, and the namespace goes
	// within moments of its last object.
	c.loop = controller.New("namespace-finalizer", c.sync, controller.WithBackoff(100*time.Millisecond, recheckMax))
	c.loop.WaitFor(nsInformer.Informer().HasSynced)
	_, err = nsInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueue,
		UpdateFunc: func(_, obj any) { c.enqueue(obj) },
	})
	if err != nil {
		return nil, fmt.Errorf("watch namespaces: %w", err)
	}
	return c, nil
}

func (c *Controller) enqueue(obj any) {
	if ns, ok := obj.(*corev1.Namespace); ok && ns.DeletionTimestamp != nil {
		c.loop.Enqueue(ns.Name)
	}
}

// Run processes namespaces until ctx ends.
func (c *Controller) Run(ctx context.Context, workers int) {
	c.informers.Start(ctx.Done())
	if err := c.loop.Run(ctx, workers); err != nil {
		klog.FromContext(ctx).Error(err, "Namespace controller stopped")
	}
}

// sync moves one namespace along its deletion.
func (c *Controller) sync(ctx context.Context, name string) error {
	ns, err := c.lister.Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("get namespace %q: %w", name, err)
	}
	switch decide(ns) {
	case emptyNamespace:
		if err := c.deleteContent(ctx, name); err != nil {
			return err
		}
		ns = ns.DeepCopy()
		ns.Spec.Finalizers = withoutOurFinalizer(ns.Spec.Finalizers)
		if _, err := c.kube.CoreV1().Namespaces().Finalize(ctx, ns, metav1.UpdateOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("finalize namespace %q: %w", name, err)
		}
		return c.deleteNamespace(ctx, name)
	case deleteAgain:
		return c.deleteNamespace(ctx, name)
	}
	return nil
}

func (c *Controller) deleteNamespace(ctx context.Context, name string) error {
	err := c.kube.CoreV1().Namespaces().Delete(ctx, name, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete namespace %q: %w", name, err)
	}
	return nil
}

// deleteContent deletes every namespaced object in the namespace and
// reports errContentRemains while some are still there (e.g. held by
// finalizers). A kind that fails does not hold the others back: every
// kind is tried, and the failures are reported together.
func (c *Controller) deleteContent(ctx context.Context, name string) error {
	lists, err := c.discovery.ServerPreferredNamespacedResources()
	if err != nil && len(lists) == 0 {
		return fmt.Errorf("discover namespaced resources: %w", err)
	}
	var failed []error
	remaining := false
	for _, gvr := range deletableResources(lists) {
		left, err := c.emptyResource(ctx, gvr, name)
		if err != nil {
			failed = append(failed, err)
			continue
		}
		remaining = remaining || left
	}
	if len(failed) > 0 {
		return errors.Join(failed...)
	}
	if remaining {
		return errContentRemains
	}
	return nil
}

// emptyResource deletes the objects of one resource in a namespace a page
// at a time, so that no request runs long however many there are, and
// returns whether some are left (being deleted, held by finalizers). It
// reads the objects' metadata only.
func (c *Controller) emptyResource(ctx context.Context, gvr schema.GroupVersionResource, ns string) (bool, error) {
	client := c.metadata.Resource(gvr).Namespace(ns)
	cont := ""
	for {
		opts := metav1.ListOptions{Limit: deletePage, Continue: cont}
		page, err := client.List(ctx, opts)
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("list %s in namespace %q: %w", gvr, ns, err)
		}
		// A page of objects already being deleted needs no request.
		if live(page.Items) > 0 {
			if err := client.DeleteCollection(ctx, metav1.DeleteOptions{}, opts); err != nil && !apierrors.IsNotFound(err) {
				return false, fmt.Errorf("delete %s in namespace %q: %w", gvr, ns, err)
			}
		}
		if cont = page.GetContinue(); cont == "" {
			break
		}
	}
	// One object tells that the namespace is not empty yet.
	left, err := client.List(ctx, metav1.ListOptions{Limit: 1})
	if err != nil && !apierrors.IsNotFound(err) {
		return false, fmt.Errorf("list %s in namespace %q: %w", gvr, ns, err)
	}
	return err == nil && len(left.Items) > 0, nil
}
