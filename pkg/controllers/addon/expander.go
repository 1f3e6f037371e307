package addon

import (
	"context"
	"fmt"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/mco-org/mco/pkg/addon"
	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/binding"
	addonlisters "github.com/mco-org/mco/pkg/generated/listers/addons/v1alpha1"
	"github.com/mco-org/mco/pkg/names"
)

// Expander turns an Addon, as one cluster gets it, into that cluster's
// Works: the binding controller asks it instead of writing the Addon
// itself into a Work.
type Expander struct {
	renderer *Renderer
	addons   addonlisters.AddonLister
	bindings *binding.Store
	outcomes *addon.Outcomes
}

// NewExpander returns an Expander rendering with renderer, reading the
// Addons from addons and their placements from bindings, recording what it
// made of each cluster in outcomes.
func NewExpander(renderer *Renderer, addons addonlisters.AddonLister, bindings *binding.Store, outcomes *addon.Outcomes) *Expander {
	return &Expander{renderer: renderer, addons: addons, bindings: bindings, outcomes: outcomes}
}

// Round is one pass of the binding controller over one Addon's binding:
// the other add-ons and their placements are read once for all its
// clusters. Finish records what it made of each cluster.
type Round struct {
	e      *Expander
	name   string
	addons []*addonsv1alpha1.Addon
	placed map[string]sets.Set[string]
	// undecided are the add-ons a policy claims whose placement is not
	// decided yet.
	undecided sets.Set[string]
	outcomes  map[string]addon.Outcome
}

// Begin starts a round for the Addon named name.
func (e *Expander) Begin(name string) (*Round, error) {
	list, err := e.addons.List(labels.Everything())
	if err != nil {
		return nil, fmt.Errorf("list addons: %w", err)
	}
	placed := make(map[string]sets.Set[string], len(list))
	undecided := sets.New[string]()
	for _, a := range list {
		set := sets.New[string]()
		v, err := e.bindings.Get(binding.Key{Name: names.Binding("Addon", a.Name)})
		switch {
		case apierrors.IsNotFound(err):
			if _, claimed := a.Labels[policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel]; claimed {
				undecided.Insert(a.Name)
			}
		case err != nil:
			return nil, err
		case v.Meta.DeletionTimestamp == nil:
			for _, t := range binding.Targets(v.Spec) {
				set.Insert(t.Name)
			}
			if v.Status.SchedulerObservedGeneration < v.Meta.Generation {
				undecided.Insert(a.Name)
			}
		}
		placed[a.Name] = set
	}
	return &Round{e: e, name: name, addons: list, placed: placed, undecided: undecided, outcomes: map[string]addon.Outcome{}}, nil
}

// Expand returns the Works of cluster for the Addon in manifest (its
// revision for the cluster, overrides applied, marked by the binding
// controller), built on base, the Work the binding controller would write
// for a template. false: the cluster's Works stay as they are, whatever
// they are (the add-on waits, is blocked, or could not be rendered: what
// runs there stays). installed tells whether the cluster has Works of the
// add-on now.
func (r *Round) Expand(ctx context.Context, manifest *unstructured.Unstructured, cluster *clusterv1alpha1.Cluster, base *workv1alpha1.Work, installed bool) ([]*workv1alpha1.Work, bool) {
	a := &addonsv1alpha1.Addon{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(manifest.Object, a); err != nil {
		r.outcomes[cluster.Name] = addon.Outcome{Err: fmt.Sprintf("decode the Addon: %v", err)}
		return nil, false
	}
	a.SetDefaults()
	rendered, err := r.e.renderer.Render(ctx, a, cluster)
	if err != nil {
		r.outcomes[cluster.Name] = addon.Outcome{Err: err.Error()}
		return nil, false
	}
	out := addon.Outcome{ChartVersion: rendered.ChartVersion, ValuesHash: rendered.ValuesHash, Revision: revisionOf(manifest)}
	out.Verdict = addon.Decide(r.input(a, cluster, rendered, installed))
	if !out.Verdict.Proceed() {
		r.outcomes[cluster.Name] = out
		return nil, false
	}
	createNamespace := ""
	if a.Spec.Release.CreateNamespace {
		createNamespace = a.Spec.Release.Namespace
	}
	m, err := manifestsOf(rendered.Objects, marksOf(manifest), createNamespace)
	if err != nil {
		r.outcomes[cluster.Name] = addon.Outcome{Err: err.Error()}
		return nil, false
	}
	out.Rendered = fmt.Sprintf("%d/%s/%s", out.Revision, out.ChartVersion, out.ValuesHash)
	base = base.DeepCopy()
	if base.Annotations == nil {
		base.Annotations = map[string]string{}
	}
	base.Annotations[addon.RenderedAnnotation] = out.Rendered
	works := addon.Works(base, a.Name, a.Spec.Release.Namespace, m.Raw, addon.Parts(m.sizes(), m.Keep, addon.WorkBudget))
	out.Want = len(works)
	r.outcomes[cluster.Name] = out
	return works, true
}

// input is what deciding the add-on in cluster reads: the other add-ons
// as their status and placements say, this one as the cluster gets it.
func (r *Round) input(a *addonsv1alpha1.Addon, cluster *clusterv1alpha1.Cluster, rendered *Rendered, installed bool) addon.Input {
	peers := Peers(r.addons, r.placed, cluster.Name)
	for n := range r.undecided {
		if p, ok := peers[n]; ok {
			p.Undecided = true
			peers[n] = p
		}
	}
	self := peers[a.Name]
	delete(peers, a.Name)
	self.Name, self.Placed, self.Installed = a.Name, true, self.Installed || installed
	self.DependsOn, self.ConflictsWith = nil, nil
	for _, d := range a.Spec.DependsOn {
		self.DependsOn = append(self.DependsOn, d.Name)
	}
	for _, c := range a.Spec.ConflictsWith {
		self.ConflictsWith = append(self.ConflictsWith, c.Name)
	}
	if self.Created.IsZero() {
		self.Created = a.CreationTimestamp.Time
	}
	var ranges []addon.Range
	if a.Spec.KubeVersion != "" {
		ranges = append(ranges, addon.Range{Source: "spec.kubeVersion", Constraint: a.Spec.KubeVersion})
	}
	if rendered.ChartKubeVersion != "" {
		ranges = append(ranges, addon.Range{Source: "the chart's kubeVersion", Constraint: rendered.ChartKubeVersion})
	}
	return addon.Input{Cluster: cluster.Name, KubeVersion: cluster.Status.KubernetesVersion, Self: self, Ranges: ranges, Others: peers}
}

// Finish records the round's outcomes.
func (r *Round) Finish() { r.e.outcomes.Set(r.name, r.outcomes) }

// Failed names a cluster whose objects could not be made and why, "" when
// there is none.
func (r *Round) Failed() string {
	for c, o := range r.outcomes {
		if o.Err != "" {
			return "cluster " + c + ": " + o.Err
		}
	}
	return ""
}

// revisionOf is the revision a cluster is given of the Addon in
// manifest: its rollout revision, else its generation.
func revisionOf(manifest *unstructured.Unstructured) int64 {
	a := manifest.GetAnnotations()
	for _, k := range []string{rolloutv1alpha1.RevisionAnnotation, workv1alpha1.ResourceTemplateGenerationAnnotation} {
		if n, err := strconv.ParseInt(a[k], 10, 64); err == nil {
			return n
		}
	}
	return manifest.GetGeneration()
}

// marksOf are the annotations of the Addon's manifest that every object
// of it carries.
func marksOf(manifest *unstructured.Unstructured) map[string]string {
	out := map[string]string{}
	a := manifest.GetAnnotations()
	for _, k := range []string{workv1alpha1.ResourceConflictResolutionAnnotation, workv1alpha1.ResourceTemplateGenerationAnnotation, rolloutv1alpha1.RevisionAnnotation} {
		if v, ok := a[k]; ok {
			out[k] = v
		}
	}
	return out
}
