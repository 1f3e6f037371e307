package scheduler

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/placement"
	"github.com/mco-org/mco/pkg/scheduler/plugins"
)

// ReasonAPIIncompatible is the reason of the Event that names the clusters
// a binding's placement selects but that do not serve its template's API
// (a member on an older Kubernetes version), as Karmada names it.
const ReasonAPIIncompatible = "APIIncompatible"

// apiLeftOut lists, sorted, the clusters that the affinity the binding was
// placed by selects, that do not serve its template's apiVersion and kind,
// and that were therefore left out of clusters.
func apiLeftOut(spec *workv1alpha2.ResourceBindingSpec, affinityName string, clusters []*clusterv1alpha1.Cluster, placed []workv1alpha2.TargetCluster) []string {
	gv, kind := spec.Resource.APIVersion, spec.Resource.Kind
	if addonsv1alpha1.Is(schema.FromAPIVersionAndKind(gv, kind)) {
		return nil
	}
	affinity := usedAffinity(spec.Placement, affinityName)
	in := map[string]bool{}
	for _, c := range placed {
		in[c.Name] = true
	}
	var out []string
	for _, c := range clusters {
		if in[c.Name] || c.DeletionTimestamp != nil || plugins.ServesKind(c, gv, kind) || !placement.ClusterMatches(c, affinity) {
			continue
		}
		out = append(out, c.Name)
	}
	sort.Strings(out)
	return out
}

// usedAffinity is the cluster affinity a decision used: the named term of
// clusterAffinities, or clusterAffinity.
func usedAffinity(p *policyv1alpha1.Placement, name string) *policyv1alpha1.ClusterAffinity {
	if p == nil {
		return nil
	}
	for i := range p.ClusterAffinities {
		if p.ClusterAffinities[i].AffinityName == name {
			return &p.ClusterAffinities[i].ClusterAffinity
		}
	}
	return p.ClusterAffinity
}

// apiLeftOutMessage says which clusters a binding leaves out for lack of
// its template's API, in words a person can act on.
func apiLeftOutMessage(spec *workv1alpha2.ResourceBindingSpec, left []string) string {
	return fmt.Sprintf("Cluster(s) %s do not serve %s %s: nothing of this binding goes there until they do (a newer Kubernetes version, or the API enabled)",
		strings.Join(left, ", "), spec.Resource.APIVersion, spec.Resource.Kind)
}
