// Package clusterstatus probes every member cluster and publishes its
// health, version, served APIs and node and resource summaries in the
// Cluster's status.
package clusterstatus

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/kubernetes"
	coordinationlisters "k8s.io/client-go/listers/coordination/v1"
	"k8s.io/client-go/tools/cache"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/shared"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	clusterlisters "github.com/mco-org/mco/pkg/generated/listers/cluster/v1alpha1"
	worklisters "github.com/mco-org/mco/pkg/generated/listers/work/v1alpha1"
	"github.com/mco-org/mco/pkg/member"
	"github.com/mco-org/mco/pkg/metrics"
)

// Controller is the cluster status controller.
type Controller struct {
	mco        mcoclient.Interface
	kube       kubernetes.Interface
	clusters   clusterlisters.ClusterLister
	leases     coordinationlisters.LeaseLister
	members    member.Source
	metrics    *metrics.ControllerManager
	every      time.Duration
	health     shared.ClusterHealth
	thresholds Thresholds
	pending    pendingChanges
	now        func() time.Time
	loop       *controller.Controller[string]
	// apis refreshes API lists when CRDs are established in members.
	apis  *controller.Controller[string]
	works worklisters.WorkLister
	// holder is who renews the Leases: the process's component name.
	holder string
}

// New builds the cluster status controller.
func New(_ context.Context, c *shared.Context) (shared.Runner, error) {
	clusters := c.MCOInformers.Cluster().V1alpha1().Clusters()
	leases := c.KubeInformers.Coordination().V1().Leases()
	s := &Controller{mco: c.MCO, kube: c.Kube, clusters: clusters.Lister(), leases: leases.Lister(), members: c.Members,
		metrics: c.Metrics, every: c.ClusterStatusUpdateFrequency, health: c.ClusterHealth,
		thresholds: Thresholds{Failure: c.ClusterHealth.FailureThreshold, Success: c.ClusterHealth.SuccessThreshold}, now: time.Now,
		holder: c.Component}
	s.loop = controller.New("cluster-status", s.sync, controller.WithBackoff(time.Second, s.every))
	s.loop.WaitFor(clusters.Informer().HasSynced, c.Members.HasSynced, leases.Informer().HasSynced)
	enqueue := func(obj any) {
		if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = t.Obj
		}
		if cl, ok := obj.(*clusterv1alpha1.Cluster); ok {
			s.loop.Enqueue(cl.Name)
		}
	}
	if _, err := clusters.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: enqueue,
		UpdateFunc: func(oldObj, newObj any) {
			if oldObj.(*clusterv1alpha1.Cluster).Generation != newObj.(*clusterv1alpha1.Cluster).Generation {
				enqueue(newObj)
			}
		},
		DeleteFunc: enqueue,
	}); err != nil {
		return nil, fmt.Errorf("cluster status controller: %w", err)
	}
	works := c.MCOInformers.Work().V1alpha1().Works()
	s.works = works.Lister()
	s.apis = controller.New("cluster-apis", s.syncAPIs, controller.WithBackoff(500*time.Millisecond, 10*time.Second))
	s.apis.WaitFor(clusters.Informer().HasSynced, works.Informer().HasSynced, c.Members.HasSynced)
	if err := s.watchCRDWorks(works.Informer()); err != nil {
		return nil, fmt.Errorf("cluster status controller: %w", err)
	}
	return func(ctx context.Context) error {
		go func() { _ = s.apis.Run(ctx, 1) }()
		return s.loop.Run(ctx, 2)
	}, nil
}

// sync probes one cluster, publishes its status and comes back after the
// update frequency.
func (s *Controller) sync(ctx context.Context, name string) error {
	cached, err := s.clusters.Get(name)
	if apierrors.IsNotFound(err) {
		s.members.Forget(name)
		s.pending.set(name, nil)
		s.metrics.ForgetCluster(name)
		return deleteLease(ctx, s.kube, name)
	}
	if err != nil {
		return err
	}
	if cached.DeletionTimestamp != nil {
		return nil
	}
	if !s.members.Reaches(name) {
		// A Pull cluster's agent probes it, writes its status and renews
		// its Lease; here its status only feeds the metrics.
		s.metrics.ObserveCluster(cached)
		s.loop.EnqueueAfter(name, s.every)
		return nil
	}
	start := time.Now()
	defer func() { s.metrics.ClusterSyncStatusDuration.WithLabelValues(name).Observe(time.Since(start).Seconds()) }()
	c := cached.DeepCopy()
	next := s.every
	if due := s.collect(ctx, c); due > 0 && due < next {
		next = due // a pending Ready change is due before the next probe
	}
	s.metrics.ObserveCluster(c)
	if !apiequality.Semantic.DeepEqual(c.Status, cached.Status) {
		if _, err := s.mco.ClusterV1alpha1().Clusters().UpdateStatus(ctx, c, metav1.UpdateOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("update status of cluster %s: %w", name, err)
		}
	}
	if err := renewLease(ctx, s.kube, s.leases, name, s.holder, s.health.MonitorGracePeriod, s.now()); err != nil {
		return err
	}
	s.loop.EnqueueAfter(name, next)
	return nil
}

// setReady publishes the observed Ready condition once it has held for
// the threshold, and returns how long until a pending change is due.
func (s *Controller) setReady(c *clusterv1alpha1.Cluster, observed metav1.Condition) time.Duration {
	var published *metav1.Condition
	if p := meta.FindStatusCondition(c.Status.Conditions, clusterv1alpha1.ClusterConditionReady); p != nil {
		published = p.DeepCopy()
	}
	cond, p, due := s.thresholds.adjust(published, observed, s.pending.get(c.Name), s.now())
	s.pending.set(c.Name, p)
	meta.SetStatusCondition(&c.Status.Conditions, cond)
	return due
}

// collect fills c.Status from the member, and returns how long until a
// pending Ready change is due (0 when none).
func (s *Controller) collect(ctx context.Context, c *clusterv1alpha1.Cluster) time.Duration {
	clients, err := s.members.Get(c.Name)
	if err != nil {
		return s.setReady(c, readyCondition(false, false, err.Error(), c.Generation))
	}
	reachable, healthy, msg := probe(ctx, clients)
	due := s.setReady(c, readyCondition(reachable, healthy, msg, c.Generation))
	if !reachable || !healthy {
		return due
	}
	if v, err := clients.Kube.Discovery().ServerVersion(); err == nil {
		c.Status.KubernetesVersion = v.GitVersion
	}
	collectAPIs(clients, c)
	nodes := clients.Typed.Core().V1().Nodes()
	pods := clients.Typed.Core().V1().Pods()
	nodeInf, podInf := nodes.Informer(), pods.Informer()
	clients.Start()
	if !nodeInf.HasSynced() || !podInf.HasSynced() {
		return time.Second // summaries once the caches are filled
	}
	nodeList, _ := nodes.Lister().List(labels.Everything())
	podList, _ := pods.Lister().List(labels.Everything())
	c.Status.NodeSummary = nodeSummary(nodeList)
	c.Status.ResourceSummary = resourceSummary(nodeList, podList)
	c.Status.ResourceSummary.AllocatableModelings = allocatableModelings(c.Spec.ResourceModels, nodeList, podList)
	return due
}

// collectAPIs lists the member's APIs into c's status, with the condition
// telling whether the list is complete.
func collectAPIs(clients *member.Clients, c *clusterv1alpha1.Cluster) {
	_, lists, err := clients.Kube.Discovery().ServerGroupsAndResources()
	if len(lists) == 0 {
		return
	}
	var failed map[schema.GroupVersion]error
	if d, ok := err.(*discovery.ErrGroupDiscoveryFailed); ok {
		failed = d.Groups
	}
	c.Status.APIEnablements = keepFailed(apiEnablements(lists), c.Status.APIEnablements, failed)
	complete := metav1.Condition{Type: clusterv1alpha1.ClusterConditionCompleteAPIEnablements, Status: metav1.ConditionTrue,
		Reason: "CompleteAPIEnablements", Message: "collected the complete list of the cluster's APIs", ObservedGeneration: c.Generation}
	if err != nil {
		complete.Status, complete.Reason, complete.Message = metav1.ConditionFalse, "PartialAPIEnablements",
			"some API groups could not be listed (their last known resources are kept): "+failedNames(failed, err)
	}
	meta.SetStatusCondition(&c.Status.Conditions, complete)
}

// failedNames names the group versions whose discovery failed, sorted (the
// error itself when it names none).
func failedNames(failed map[schema.GroupVersion]error, err error) string {
	if len(failed) == 0 {
		return err.Error()
	}
	names := make([]string, 0, len(failed))
	for gv := range failed {
		names = append(names, gv.String())
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// probeTimeout bounds one health probe: a member that does not answer
// within it counts as unreachable.
const probeTimeout = 5 * time.Second

// probe calls /readyz, or /healthz when the member has no /readyz.
func probe(ctx context.Context, c *member.Clients) (reachable, healthy bool, msg string) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	rc := c.Kube.Discovery().RESTClient()
	for _, path := range []string{"/readyz", "/healthz"} {
		var code int
		body, err := rc.Get().AbsPath(path).Do(ctx).StatusCode(&code).Raw()
		if code == http.StatusNotFound {
			continue
		}
		if err != nil && code == 0 {
			return false, false, err.Error()
		}
		if code != http.StatusOK {
			return true, false, fmt.Sprintf("%s returned %d: %s", path, code, truncate(string(body), 200))
		}
		return true, true, ""
	}
	return true, false, "neither /readyz nor /healthz is served"
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
