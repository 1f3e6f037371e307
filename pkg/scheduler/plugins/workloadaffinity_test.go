package plugins_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/sets"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/scheduler/plugins"
	"github.com/mco-org/mco/pkg/testing/builders"
)

// peers are the scheduled workloads of each group: "affinity/g" and
// "anti/g" to their clusters, one set per peer.
type peers map[string][][]string

func (p peers) Placed(_, group string, anti bool, _ workv1alpha2.ObjectReference) []sets.Set[string] {
	kind := "affinity/"
	if anti {
		kind = "anti/"
	}
	var out []sets.Set[string]
	for _, clusters := range p[kind+group] {
		out = append(out, sets.New(clusters...))
	}
	return out
}

func TestWorkloadAffinity(t *testing.T) {
	t.Parallel()
	withGroups := func(affinity, anti string) *builders.BindingBuilder {
		return builders.NewBinding("web").WithWorkloadGroups(affinity, anti)
	}
	tests := []struct {
		name    string
		peers   peers
		binding *builders.BindingBuilder
		cluster string
		want    string
	}{
		{name: "no groups: every cluster", binding: builders.NewBinding("web"), cluster: "m1", want: feasible},
		{name: "the first of its affinity group goes anywhere", binding: withGroups("app=shop", ""), cluster: "m1", want: feasible},
		{name: "a cluster running every peer of the group", peers: peers{"affinity/app=shop": {{"m1", "m2"}, {"m1"}}},
			binding: withGroups("app=shop", ""), cluster: "m1", want: feasible},
		{name: "a cluster missing one peer of the group", peers: peers{"affinity/app=shop": {{"m1", "m2"}, {"m1"}}},
			binding: withGroups("app=shop", ""), cluster: "m2", want: plugins.ReasonAffinityGroupAbsent},
		{name: "a cluster running a peer of the anti-affinity group", peers: peers{"anti/app=db": {{"m3"}}},
			binding: withGroups("", "app=db"), cluster: "m3", want: plugins.ReasonAntiAffinityGroupRan},
		{name: "a cluster running none of the anti-affinity group", peers: peers{"anti/app=db": {{"m3"}}},
			binding: withGroups("", "app=db"), cluster: "m1", want: feasible},
		{name: "a cluster the binding holds already passes", peers: peers{"anti/app=db": {{"m3"}}},
			binding: withGroups("", "app=db").ScheduledTo("m3", 1), cluster: "m3", want: feasible},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := mustNew(t, plugins.NewWorkloadAffinity(tt.peers))
			if got := verdict(t, p, nil, tt.binding.Build(), builders.NewCluster(tt.cluster).Build()); got != tt.want {
				t.Errorf("verdict %q, want %q", got, tt.want)
			}
		})
	}
}
