// Package scheduler is mco-scheduler's loop: it watches bindings and
// clusters on mco-apiserver, decides placements with package core and
// writes spec.clusters and the Scheduled condition back.
package scheduler

import (
	"context"
	"fmt"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/controller"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	informers "github.com/mco-org/mco/pkg/generated/informers/externalversions"
	clusterlisters "github.com/mco-org/mco/pkg/generated/listers/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/metrics"
	"github.com/mco-org/mco/pkg/scheduler/core"
	"github.com/mco-org/mco/pkg/scheduler/plugins"
)

// DefaultSchedulerName is the schedulerName bindings get by default.
const DefaultSchedulerName = "default-scheduler"

// Scheduler is the scheduling loop.
type Scheduler struct {
	client        mcoclient.Interface
	informers     informers.SharedInformerFactory
	bindings      *binding.Store
	clusterLister clusterlisters.ClusterLister
	loop          *controller.Controller[binding.Key]
	core          *core.Scheduler
	metrics       *metrics.Scheduler
	name          string
	pending       pendingSets
	recorder      record.EventRecorder
	limiter       *evictionLimiter
	blocked       keySet
	waiting       keySet
	unhealthy     unhealthySince
	states        lastStates
	quotas        *quotaGuard
}

// New builds the loop over a client of mco-apiserver; decisions are
// recorded as Events with recorder.
func New(client mcoclient.Interface, m *metrics.Scheduler, schedulerName string, recorder record.EventRecorder, eviction EvictionOptions) (*Scheduler, error) {
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithTransform(controller.SlimMetadata))
	rbs := factory.Work().V1alpha2().ResourceBindings()
	if err := indexWorkloadGroups(rbs.Informer()); err != nil {
		return nil, fmt.Errorf("scheduler: %w", err)
	}
	fw, err := plugins.NewDefaultFramework(workloadPeers{indexer: rbs.Informer().GetIndexer()})
	if err != nil {
		return nil, fmt.Errorf("scheduler framework: %w", err)
	}
	fw.SetObserver(m)
	crbs := factory.Work().V1alpha2().ClusterResourceBindings()
	clusters := factory.Cluster().V1alpha1().Clusters()
	quotas := factory.Policy().V1alpha1().FederatedResourceQuotas()
	bindings, err := binding.NewStore(client, rbs, crbs)
	if err != nil {
		return nil, fmt.Errorf("scheduler: %w", err)
	}
	s := &Scheduler{
		client:        client,
		informers:     factory,
		bindings:      bindings,
		clusterLister: clusters.Lister(),
		core:          core.New(fw, core.Steps{Observe: m.ObserveStep}),
		metrics:       m,
		recorder:      recorder,
		name:          schedulerName,
		limiter:       newEvictionLimiter(eviction),
		quotas:        &quotaGuard{quotas: quotas.Lister(), locks: map[string]*sync.Mutex{}},
	}
	// Higher schedulePriority first, FIFO within a priority (Karmada's queue).
	s.loop = controller.New("scheduler", s.sync, controller.WithPriority(bindings.SchedulePriority))
	s.loop.WaitFor(rbs.Informer().HasSynced, crbs.Informer().HasSynced, clusters.Informer().HasSynced, quotas.Informer().HasSynced)
	handlers := []struct {
		informer cache.SharedIndexInformer
		h        cache.ResourceEventHandler
	}{
		{rbs.Informer(), s.bindingHandler()},
		{crbs.Informer(), s.bindingHandler()},
		{clusters.Informer(), s.clusterHandler()},
		{quotas.Informer(), s.quotaHandler()},
	}
	for _, x := range handlers {
		if _, err := x.informer.AddEventHandler(x.h); err != nil {
			return nil, fmt.Errorf("watch: %w", err)
		}
	}
	return s, nil
}

// Run schedules until ctx ends.
func (s *Scheduler) Run(ctx context.Context, workers int) error {
	s.informers.Start(ctx.Done())
	defer s.informers.Shutdown()
	go wait.UntilWithContext(ctx, s.reportQueue, time.Second)
	return s.loop.Run(ctx, workers)
}

// HasSynced tells whether the caches are filled (readiness).
func (s *Scheduler) HasSynced() bool { return s.loop.HasSynced() }

func (s *Scheduler) reportQueue(context.Context) {
	backoff, unschedulable := s.pending.sizes()
	s.metrics.PendingBindings.WithLabelValues("active").Set(float64(s.loop.Len()))
	s.metrics.PendingBindings.WithLabelValues("backoff").Set(float64(backoff))
	s.metrics.PendingBindings.WithLabelValues("unschedulable").Set(float64(unschedulable))
	s.metrics.EvictionBlocked.Set(float64(s.blocked.len()))
	s.metrics.EvictionQueueDepth.Set(float64(s.waiting.len()))
}

// clusters lists the clusters to schedule onto, from the informer cache.
func (s *Scheduler) clusters() ([]*clusterv1alpha1.Cluster, error) {
	return s.clusterLister.List(labels.Everything())
}

func ignoreNotFound(err error) error {
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}
