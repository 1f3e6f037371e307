package agent

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/record"

	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/shared"
	"github.com/mco-org/mco/pkg/events"
	"github.com/mco-org/mco/pkg/interpreter"
	"github.com/mco-org/mco/pkg/interpreter/lua"
	"github.com/mco-org/mco/pkg/join"
	"github.com/mco-org/mco/pkg/kubeconfig"
	"github.com/mco-org/mco/pkg/member"
	"github.com/mco-org/mco/pkg/slimwire"
)

// componentName names the agent in Leases, Events and metrics.
const componentName = "mco-agent"

// newContext builds what the agent's controllers share for one session:
// informers of its own Works, Cluster and Lease on mco, and the member's
// clients. Nothing of it outlives ctx.
func (a *Agent) newContext(ctx context.Context) (*shared.Context, error) {
	name := a.cfg.Identity.Name
	kube, err := kubernetes.NewForConfig(slimwire.ForComponents(kubeconfig.Protobuf(a.mcoConfig)))
	if err != nil {
		return nil, fmt.Errorf("kube client of mco: %w", err)
	}
	leases := kubeinformers.NewSharedInformerFactoryWithOptions(kube, 0, kubeinformers.WithNamespace(join.Namespace),
		kubeinformers.WithTweakListOptions(func(o *metav1.ListOptions) {
			o.FieldSelector = fields.OneTermEqualSelector("metadata.name", name).String()
		}), kubeinformers.WithTransform(controller.SlimMetadata))
	members, err := member.NewLocal(ctx, name, a.cfg.Member)
	if err != nil {
		return nil, err
	}
	inf := newOwnFactory(a.mco, name)
	c := &shared.Context{
		Component: componentName, Config: a.mcoConfig, MCO: a.mco, Kube: kube,
		MCOInformers: inf, KubeInformers: leases, Members: members, Metrics: a.metrics,
		NewRecorder:                  func() record.EventRecorder { return events.NewRecorder(ctx, kube, componentName) },
		Workers:                      a.cfg.Workers,
		ClusterStatusUpdateFrequency: a.cfg.StatusInterval,
		ClusterHealth:                a.cfg.Health,
		StatusCoalesceWindow:         a.cfg.CoalesceWindow,
		HeldWorkStatuses:             shared.NewHeldStatuses(),
		Interpreter:                  interpreter.New(lua.NewVM(), nil),
	}
	if c.Customizations, err = interpreter.Follow(c.Interpreter, inf.Config().V1alpha1().ResourceInterpreterCustomizations().Informer()); err != nil {
		return nil, err
	}
	// The agent calls interpreter webhooks too (status, health and retain
	// of its member's objects); a change of them shows on each object's
	// next event.
	if mayListWebhooks(ctx, kube) {
		if err := c.Customizations.FollowWebhooks(inf.Config().V1alpha1().ResourceInterpreterWebhookConfigurations().Informer(), nil); err != nil {
			return nil, err
		}
	}
	leases.Coordination().V1().Leases().Informer()
	return c, nil
}
