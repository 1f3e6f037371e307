package controllermanager

import (
	"context"
	"fmt"
	"sort"
	"strings"

	addonctl "github.com/mco-org/mco/pkg/controllers/addon"
	"github.com/mco-org/mco/pkg/controllers/binding"
	"github.com/mco-org/mco/pkg/controllers/bindingstatus"
	"github.com/mco-org/mco/pkg/controllers/cluster"
	"github.com/mco-org/mco/pkg/controllers/clusterstatus"
	"github.com/mco-org/mco/pkg/controllers/cronfederatedhpa"
	"github.com/mco-org/mco/pkg/controllers/dependencies"
	"github.com/mco-org/mco/pkg/controllers/detector"
	"github.com/mco-org/mco/pkg/controllers/execution"
	"github.com/mco-org/mco/pkg/controllers/federatedhpa"
	"github.com/mco-org/mco/pkg/controllers/federatedquota"
	"github.com/mco-org/mco/pkg/controllers/gracefuleviction"
	"github.com/mco-org/mco/pkg/controllers/hpareplicas"
	"github.com/mco-org/mco/pkg/controllers/multiclusterservice"
	"github.com/mco-org/mco/pkg/controllers/namespacesync"
	"github.com/mco-org/mco/pkg/controllers/rebalancer"
	"github.com/mco-org/mco/pkg/controllers/remedy"
	"github.com/mco-org/mco/pkg/controllers/rollout"
	"github.com/mco-org/mco/pkg/controllers/shared"
	"github.com/mco-org/mco/pkg/controllers/taintpolicy"
	"github.com/mco-org/mco/pkg/controllers/workstatus"
)

// controllers are every controller mco-controller-manager can run, by the
// name --controllers takes.
var controllers = map[string]shared.InitFunc{
	"addon":                                newAddon,
	"cluster":                              cluster.New,
	"cronFederatedHorizontalPodAutoscaler": cronfederatedhpa.New,
	"clusterStatus":                        clusterstatus.New,
	"detector":                             detector.New,
	"dependencies":                         dependencies.New,
	"binding":                              binding.New,
	"bindingStatus":                        bindingstatus.New,
	"execution":                            execution.New,
	"federatedHorizontalPodAutoscaler":     federatedhpa.New,
	"federatedResourceQuota":               federatedquota.New,
	"gracefulEviction":                     gracefuleviction.New,
	"multiClusterService":                  multiclusterservice.New,
	"namespace":                            namespacesync.New,
	"remedy":                               remedy.New,
	"rollout":                              rollout.New,
	"taintPolicy":                          taintpolicy.New,
	"workStatus":                           workstatus.New,
	"workloadRebalancer":                   rebalancer.New,
	// Unlike Karmada, which ships these two off, mco runs them by default:
	// a propagated autoscaler then owns its target's replicas in the
	// members. "-hpaScaleTargetMarker,-deploymentReplicasSyncer" turns
	// them off.
	"hpaScaleTargetMarker":     hpareplicas.NewMarker,
	"deploymentReplicasSyncer": hpareplicas.NewSyncer,
}

// newAddon builds the add-on status controller, which writes what the
// binding controller made of each Addon in each cluster.
func newAddon(_ context.Context, c *shared.Context) (shared.Runner, error) {
	addons := c.MCOInformers.Addons().V1alpha1().Addons()
	ctl, err := addonctl.NewController(addonctl.Deps{
		MCO: c.MCO, Addons: addons.Informer(), Lister: addons.Lister(),
		CRBs:     c.MCOInformers.Work().V1alpha2().ClusterResourceBindings().Informer(),
		Works:    c.MCOInformers.Work().V1alpha1().Works().Informer(),
		Bindings: c.Bindings, Outcomes: c.Addons.Outcomes, Templates: c.Templates, Metrics: c.Addons.Metrics,
		Window: c.StatusCoalesceWindow,
	})
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) error { return ctl.Run(ctx, c.Workers) }, nil
}

// controllerNames lists the known controllers, sorted.
func controllerNames() []string {
	out := make([]string, 0, len(controllers))
	for n := range controllers {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// enabled resolves --controllers as kube-controller-manager does: "*"
// enables all, "name" enables one, "-name" disables one.
func enabled(flag []string) ([]string, error) {
	all, on, off := false, map[string]bool{}, map[string]bool{}
	for _, f := range flag {
		f = strings.TrimSpace(f)
		switch {
		case f == "*":
			all = true
		case strings.HasPrefix(f, "-"):
			off[f[1:]] = true
		default:
			on[f] = true
		}
	}
	for n := range on {
		if controllers[n] == nil {
			return nil, fmt.Errorf("--controllers: unknown controller %q (known: %s)", n, strings.Join(controllerNames(), ", "))
		}
	}
	for n := range off {
		if controllers[n] == nil {
			return nil, fmt.Errorf("--controllers: unknown controller %q (known: %s)", n, strings.Join(controllerNames(), ", "))
		}
	}
	var out []string
	for _, n := range controllerNames() {
		if (all || on[n]) && !off[n] {
			out = append(out, n)
		}
	}
	return out, nil
}
