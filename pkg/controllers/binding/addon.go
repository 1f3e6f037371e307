package binding

import (
	"context"
	"time"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/tools/cache"

	"github.com/mco-org/mco/pkg/addon/chart"
	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/controller"
	addonctl "github.com/mco-org/mco/pkg/controllers/addon"
	"github.com/mco-org/mco/pkg/controllers/shared"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/template"
)

// sourcesResync is how often an add-on that reads ConfigMaps or Secrets
// (valuesFrom, chart.secretRef) is rendered again: mco does not watch
// them, so a change to one reaches the members within about this long.
const sourcesResync = time.Minute

// newRenderer is the renderer of add-ons: charts fetched within the
// limits of c.Addons, values and credentials read from mco.
func newRenderer(c *shared.Context) *addonctl.Renderer {
	fetcher := chart.NewFetcher()
	fetcher.AllowLinkLocal, fetcher.MaxArchive = c.Addons.AllowLinkLocal, c.Addons.MaxChart
	sources := addonctl.NewCachedSources(c.Kube)
	return addonctl.NewRenderer(fetcher, sources, addonctl.SecretCredentials(sources), c.Addons.Metrics)
}

// addonPass is one pass over an Addon's binding: each cluster's Works come
// from the Expander, as many as its rendered objects need, rather than
// from the Addon itself.
type addonPass struct {
	round    *addonctl.Round
	existing map[string]int // Works of the binding by cluster
	wantedBy map[string]sets.Set[string]
	sources  bool
}

// addonPass begins a pass when the template is an Addon; nil otherwise.
func (b *Controller) addonPass(v *binding.View, tmpl *unstructured.Unstructured) (*addonPass, error) {
	if b.expander == nil || !template.IsAddon(tmpl.GroupVersionKind()) {
		return nil, nil
	}
	round, err := b.expander.Begin(tmpl.GetName())
	if err != nil {
		return nil, err
	}
	works, err := b.worksOf(v)
	if err != nil {
		return nil, err
	}
	p := &addonPass{round: round, existing: map[string]int{}, wantedBy: map[string]sets.Set[string]{}}
	for _, w := range works {
		if c, ok := names.ClusterOf(w.Namespace); ok && w.DeletionTimestamp == nil {
			p.existing[c]++
		}
	}
	_, from, _ := unstructured.NestedSlice(tmpl.Object, "spec", "valuesFrom")
	_, secret, _ := unstructured.NestedMap(tmpl.Object, "spec", "chart", "secretRef")
	p.sources = from || secret
	return p, nil
}

// expand returns the Works of cluster, nil when its Works are to stay as
// they are.
func (p *addonPass) expand(ctx context.Context, manifest *unstructured.Unstructured, cluster *clusterv1alpha1.Cluster, base *workv1alpha1.Work) []*workv1alpha1.Work {
	works, ok := p.round.Expand(ctx, manifest, cluster, base, p.existing[cluster.Name] > 0)
	if !ok {
		return nil
	}
	set := sets.New[string]()
	for _, w := range works {
		set.Insert(w.Name)
	}
	p.wantedBy[cluster.Name] = set
	return works
}

// wanted are the Works each cluster expanded in this pass is to keep; a
// cluster not in it keeps all of its Works.
func (p *addonPass) wanted() map[string]sets.Set[string] {
	if p == nil {
		return nil
	}
	return p.wantedBy
}

// finish records the pass and says when to look again: with back-off when
// a cluster could not be rendered (a repository away), after
// sourcesResync when the add-on reads ConfigMaps or Secrets.
func (p *addonPass) finish(loop *controller.Controller[binding.Key], k binding.Key) error {
	if p == nil {
		return nil
	}
	p.round.Finish()
	if failed := p.round.Failed(); failed != "" {
		return controller.Retry("%s: %s", k, failed)
	}
	if p.sources {
		loop.EnqueueAfter(k, sourcesResync)
	}
	return nil
}

// addonHandler queues the bindings of the add-ons whose decisions read an
// Addon that came, went or changed its phases: those that depend on it,
// conflict with it or that it conflicts with.
func (b *Controller) addonHandler() cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { b.enqueueRelated(obj) },
		UpdateFunc: func(oldObj, newObj any) {
			o, n := oldObj.(*addonsv1alpha1.Addon), newObj.(*addonsv1alpha1.Addon)
			if !samePhases(o.Status.Clusters, n.Status.Clusters) || o.Generation != n.Generation {
				b.enqueueRelated(newObj)
			}
		},
		DeleteFunc: func(obj any) { b.enqueueRelated(obj) },
	}
}

// enqueueRelated queues the bindings of the add-ons related to obj.
func (b *Controller) enqueueRelated(obj any) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	changed, ok := obj.(*addonsv1alpha1.Addon)
	if !ok || b.addons == nil {
		return
	}
	all, _ := b.addons.List(labels.Everything())
	for _, a := range addonctl.Related(changed, all) {
		b.loop.Enqueue(binding.Key{Name: names.Binding("Addon", a)})
	}
}

// enqueueAddonPlacement queues the add-ons related to the Addon whose
// ClusterResourceBinding obj is, when it is one: where an add-on is placed
// decides its dependents and conflicts.
func (b *Controller) enqueueAddonPlacement(obj any) {
	crb, ok := obj.(*workv1alpha2.ClusterResourceBinding)
	if !ok || b.addons == nil || !template.IsAddon(template.KeyOfRef(crb.Spec.Resource).GVK) {
		return
	}
	if a, err := b.addons.Get(crb.Spec.Resource.Name); err == nil {
		b.enqueueRelated(a)
	}
}

// samePhases tells whether two lists of an add-on's clusters give each
// cluster the same phase.
func samePhases(a, b []addonsv1alpha1.AddonClusterStatus) bool {
	if len(a) != len(b) {
		return false
	}
	phases := make(map[string]addonsv1alpha1.AddonPhase, len(a))
	for _, c := range a {
		phases[c.Name] = c.Phase
	}
	for _, c := range b {
		if p, ok := phases[c.Name]; !ok || p != c.Phase {
			return false
		}
	}
	return true
}

// enqueueAddonsOfCluster queues every Addon's binding when a member's
// version or served APIs change: charts render from them.
func (b *Controller) enqueueAddonsOfCluster(o, n *clusterv1alpha1.Cluster) {
	if b.addons == nil || (o.Status.KubernetesVersion == n.Status.KubernetesVersion && apiequality.Semantic.DeepEqual(o.Status.APIEnablements, n.Status.APIEnablements)) {
		return
	}
	for _, k := range b.bindings.OfKind(addonsv1alpha1.SchemeGroupVersion.WithKind("Addon")) {
		b.loop.Enqueue(k)
	}
}
