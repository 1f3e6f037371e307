/*
Copyright The mco Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

// Package federatedhpa runs FederatedHPAs with Kubernetes' own
// HorizontalPodAutoscaler controller (k8s.io/kubernetes's podautoscaler:
// its replica calculator, tolerance, stabilization windows, behavior
// policies, conditions and Events), fed with a view across members: each
// FederatedHPA is a HorizontalPodAutoscaler to it; the pods it counts are
// those of every Ready member (a Pull member's as its agent reports them); their metrics come from mco's
// own metrics.k8s.io, which reads the members' (custom and external
// metrics from the members' own APIs where they serve them); the replicas it sets are
// the template's, through its scale subresource on mco, and the scheduler
// divides them among the members as the template's policy says. The
// autoscaler counts pods; a Duplicated template, or a member left out,
// makes them differ from the template's replicas, and the view converts
// (calibration.go).
package federatedhpa

import (
	"context"
	"fmt"
	"time"

	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/scale"
	"k8s.io/client-go/tools/cache"
	"k8s.io/kubernetes/pkg/controller/podautoscaler"
	metricsv1beta1client "k8s.io/metrics/pkg/client/clientset/versioned/typed/metrics/v1beta1"

	"github.com/mco-org/mco/pkg/controllers/shared"
)

// The settings kube-controller-manager gives its HPA controller by
// default, which Karmada's FederatedHPA controller keeps too.
const (
	syncPeriod                    = 15 * time.Second
	downscaleStabilisationWindow  = 5 * time.Minute
	tolerance                     = 0.1
	cpuInitializationPeriod       = 5 * time.Minute
	delayOfInitialReadinessStatus = 30 * time.Second
)

// New builds the FederatedHPA controller.
func New(ctx context.Context, c *shared.Context) (shared.Runner, error) {
	cfg := rest.CopyConfig(c.Config)
	disco, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("federatedHPA controller: discovery: %w", err)
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disco))
	scaleClient, err := scale.NewForConfig(cfg, mapper, dynamic.LegacyAPIPathResolverFunc, scale.NewDiscoveryScaleKindResolver(disco))
	if err != nil {
		return nil, fmt.Errorf("federatedHPA controller: scale client: %w", err)
	}
	metrics, err := metricsv1beta1client.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("federatedHPA controller: metrics client: %w", err)
	}
	clusters := c.MCOInformers.Cluster().V1alpha1().Clusters()
	rbs := c.MCOInformers.Work().V1alpha2().ResourceBindings().Informer()
	// Pull members' agents report their pods in karmada-cluster.
	configMaps := c.KubeInformers.Core().V1().ConfigMaps()
	counts := counting{bindings: c.Bindings, clusters: clusters.Lister(), members: c.Members, reports: newReports(configMaps.Lister())}
	hpas := newHPAInformer(c.MCO, syncPeriod, counts.target)
	hc := podautoscaler.NewHorizontalController(ctx, fhpaEvents{c.Kube.CoreV1()}, scales{ScalesGetter: scaleClient, templates: c.Templates, share: counts.target},
		hpaStatusWriter{mco: c.MCO, stored: hpas.informer.GetIndexer()}, mapper, newMetricsClient(metrics, newMemberMetricAPIs(counts)), hpas,
		podInformer{lister: memberPods{counting: counts}},
		syncPeriod, downscaleStabilisationWindow, tolerance, cpuInitializationPeriod, delayOfInitialReadinessStatus)
	return func(ctx context.Context) error {
		go hpas.informer.RunWithContext(ctx)
		if !cache.WaitForNamedCacheSyncWithContext(ctx, clusters.Informer().HasSynced, rbs.HasSynced, configMaps.Informer().HasSynced, c.Members.HasSynced, c.Templates.HasSynced) {
			return nil
		}
		hc.Run(ctx, c.Workers)
		return nil
	}, nil
}
