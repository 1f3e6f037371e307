package controllermanager

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apiextensionsinformers "k8s.io/apiextensions-apiserver/pkg/client/informers/externalversions"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	"github.com/mco-org/mco/pkg/addon"
	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/shared"
	"github.com/mco-org/mco/pkg/controllers/taintpolicy"
	"github.com/mco-org/mco/pkg/events"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	mcoinformers "github.com/mco-org/mco/pkg/generated/informers/externalversions"
	"github.com/mco-org/mco/pkg/interpreter"
	"github.com/mco-org/mco/pkg/interpreter/lua"
	"github.com/mco-org/mco/pkg/join"
	"github.com/mco-org/mco/pkg/kubeconfig"
	"github.com/mco-org/mco/pkg/member"
	"github.com/mco-org/mco/pkg/metrics"
	"github.com/mco-org/mco/pkg/protowatch"
	"github.com/mco-org/mco/pkg/slimwire"
	"github.com/mco-org/mco/pkg/template"
)

// newContext builds the clients, informer factories and caches every
// controller shares.
func newContext(ctx context.Context, cfg *rest.Config, o *options, m *metrics.ControllerManager) (*shared.Context, error) {
	cfg = slimwire.ForComponents(cfg) // answers decoded without managedFields
	mco, err := mcoclient.NewForConfig(kubeconfig.Protobuf(cfg))
	if err != nil {
		return nil, fmt.Errorf("mco client: %w", err)
	}
	kube, err := kubernetes.NewForConfig(kubeconfig.Protobuf(cfg))
	if err != nil {
		return nil, fmt.Errorf("kube client: %w", err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("dynamic client: %w", err)
	}
	const resync = 0 // controllers requeue what they need themselves
	// No controller reads managedFields: caches go without them.
	mcoInf := mcoinformers.NewSharedInformerFactoryWithOptions(mco, resync, mcoinformers.WithTransform(controller.SlimMetadata))
	kubeInf := kubeinformers.NewSharedInformerFactoryWithOptions(kube, resync, kubeinformers.WithTransform(controller.SlimMetadata))
	// Member credentials live in karmada-cluster, where join writes them.
	secretInf := kubeinformers.NewSharedInformerFactoryWithOptions(kube, resync, kubeinformers.WithNamespace(join.Namespace),
		kubeinformers.WithTransform(controller.SlimMetadata))
	revisionInf := kubeinformers.NewSharedInformerFactoryWithOptions(kube, resync, kubeinformers.WithTweakListOptions(func(o *metav1.ListOptions) {
		o.LabelSelector = rolloutv1alpha1.RolloutLabel
	}), kubeinformers.WithTransform(controller.SlimMetadata))
	proto, err := protowatch.NewClients(cfg)
	if err != nil {
		return nil, err
	}
	templates, err := template.Discover(ctx, kube.Discovery(), dyn, proto, resync)
	if err != nil {
		return nil, err
	}
	extClient, err := apiextensionsclient.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("apiextensions client: %w", err)
	}
	extInf := apiextensionsinformers.NewSharedInformerFactory(extClient, resync)
	if err := templates.FollowCRDs(ctx, extInf.Apiextensions().V1().CustomResourceDefinitions()); err != nil {
		return nil, err
	}
	clusters := mcoInf.Cluster().V1alpha1().Clusters()
	secrets := secretInf.Core().V1().Secrets()
	bindings, err := binding.NewStore(mco, mcoInf.Work().V1alpha2().ResourceBindings(), mcoInf.Work().V1alpha2().ClusterResourceBindings())
	if err != nil {
		return nil, err
	}
	c := &shared.Context{
		Component: "mco-controller-manager", Config: cfg, MCO: mco, Kube: kube, Dynamic: dyn,
		MCOInformers: mcoInf, KubeInformers: secretInf, Revisions: revisionInf, Templates: templates, CRDInformers: extInf,
		Bindings:                     bindings,
		Members:                      member.NewManager(ctx, clusters, secrets, o.client.QPS, o.client.Burst),
		Metrics:                      m,
		NewRecorder:                  func() record.EventRecorder { return events.NewRecorder(ctx, kube, "mco-controller-manager") },
		Workers:                      o.workers,
		ClusterStatusUpdateFrequency: o.statusInterval,
		ClusterHealth:                o.health,
		GracefulEvictionTimeout:      o.evictionGrace,
		SkippedPropagatingNamespaces: o.skipped,
		StatusCoalesceWindow:         o.coalesceWindow,
		HeldWorkStatuses:             shared.NewHeldStatuses(),
	}
	c.Interpreter = interpreter.New(lua.NewVM(), nil)
	if c.Customizations, err = interpreter.Follow(c.Interpreter, mcoInf.Config().V1alpha1().ResourceInterpreterCustomizations().Informer()); err != nil {
		return nil, err
	}
	if err := c.Customizations.FollowWebhooks(mcoInf.Config().V1alpha1().ResourceInterpreterWebhookConfigurations().Informer(), templateKinds(templates)); err != nil {
		return nil, err
	}
	c.Scripts = shared.NewScriptReporter(bindings, c.NewRecorder(), c.Interpreter)
	c.Addons = &shared.Addons{AllowLinkLocal: o.addonAllowLinkLocal, MaxChart: o.addonMaxChart,
		Outcomes: addon.NewOutcomes(), Metrics: o.addonMetrics}
	// Touch the informers every controller relies on, so they are started.
	secrets.Informer()
	kubeInf.Core().V1().Namespaces().Informer()
	c.Namespaces = kubeInf
	return c, nil
}

// runControllers builds the enabled controllers, starts the informers and
// runs the controllers until ctx ends or one fails.
func runControllers(ctx context.Context, cfg *rest.Config, o *options, names []string, m *metrics.ControllerManager, ready *atomic.Bool) error {
	logger := klog.FromContext(ctx)
	c, err := newContext(ctx, cfg, o, m)
	if err != nil {
		return err
	}
	runners := map[string]shared.Runner{}
	for _, n := range names {
		r, err := controllers[n](ctx, c)
		if err != nil {
			return fmt.Errorf("controller %s: %w", n, err)
		}
		runners[n] = r
	}
	c.MCOInformers.Start(ctx.Done())
	c.KubeInformers.Start(ctx.Done())
	c.Namespaces.Start(ctx.Done())
	c.Revisions.Start(ctx.Done())
	c.Templates.Start(ctx)
	c.CRDInformers.Start(ctx.Done())
	start := time.Now()
	c.MCOInformers.WaitForCacheSync(ctx.Done())
	c.KubeInformers.WaitForCacheSync(ctx.Done())
	c.Namespaces.WaitForCacheSync(ctx.Done())
	c.Revisions.WaitForCacheSync(ctx.Done())
	c.Templates.WaitForCacheSync(ctx)
	c.CRDInformers.WaitForCacheSync(ctx.Done())
	ready.Store(true)
	logger.Info("Caches synced; controllers starting", "after", time.Since(start).Round(time.Millisecond), "templateKinds", len(c.Templates.Kinds()))

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg       sync.WaitGroup
		once     sync.Once
		firstErr error
	)
	if o.createDefaultTaintPolicy {
		wg.Add(1)
		go func() {
			defer wg.Done()
			taintpolicy.RunCreateDefault(ctx, c.MCO, c.Kube)
		}()
	}
	for n, r := range runners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := r(ctx); err != nil {
				once.Do(func() { firstErr = fmt.Errorf("controller %s: %w", n, err) })
				cancel()
			}
		}()
	}
	wg.Wait()
	return firstErr
}

// templateKinds lists the template kinds served now, for the interpreter
// to tell which of them a change of its webhooks touches.
func templateKinds(templates *template.Resources) func() []schema.GroupVersionKind {
	return func() []schema.GroupVersionKind {
		kinds := templates.Kinds()
		out := make([]schema.GroupVersionKind, len(kinds))
		for i, k := range kinds {
			out[i] = k.GVK
		}
		return out
	}
}
