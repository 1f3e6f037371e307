package scheduler

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

func TestAPILeftOut(t *testing.T) {
	t.Parallel()
	const gv, kind = "admissionregistration.k8s.io/v1", "MutatingAdmissionPolicy"
	serving := func(name string, serves bool) *clusterv1alpha1.Cluster {
		c := &clusterv1alpha1.Cluster{ObjectMeta: metav1.ObjectMeta{Name: name}}
		if serves {
			c.Status.APIEnablements = []clusterv1alpha1.APIEnablement{{GroupVersion: gv, Resources: []clusterv1alpha1.APIResource{{Name: "mutatingadmissionpolicies", Kind: kind}}}}
		}
		return c
	}
	clusters := []*clusterv1alpha1.Cluster{serving("member1", true), serving("member2", false), serving("member3", true), serving("member4", false)}
	placed := []workv1alpha2.TargetCluster{{Name: "member1"}, {Name: "member3"}}
	spec := func(p *policyv1alpha1.Placement) *workv1alpha2.ResourceBindingSpec {
		return &workv1alpha2.ResourceBindingSpec{Resource: workv1alpha2.ObjectReference{APIVersion: gv, Kind: kind, Name: "demo"}, Placement: p}
	}
	cases := []struct {
		name     string
		spec     *workv1alpha2.ResourceBindingSpec
		affinity string
		want     []string
	}{
		{name: "Every cluster selected: both without the API.", spec: spec(nil), want: []string{"member2", "member4"}},
		{name: "Only the named ones count.", spec: spec(&policyv1alpha1.Placement{ClusterAffinity: &policyv1alpha1.ClusterAffinity{ClusterNames: []string{"member1", "member2"}}}),
			want: []string{"member2"}},
		{name: "The affinity term used.", affinity: "old", spec: spec(&policyv1alpha1.Placement{ClusterAffinities: []policyv1alpha1.ClusterAffinityTerm{
			{AffinityName: "new", ClusterAffinity: policyv1alpha1.ClusterAffinity{ClusterNames: []string{"member2"}}},
			{AffinityName: "old", ClusterAffinity: policyv1alpha1.ClusterAffinity{ClusterNames: []string{"member4"}}}}}),
			want: []string{"member4"}},
		{name: "An add-on goes anywhere.", spec: &workv1alpha2.ResourceBindingSpec{Resource: workv1alpha2.ObjectReference{APIVersion: "addons.mco-org.github.io/v1alpha1", Kind: "Addon"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, apiLeftOut(tc.spec, tc.affinity, clusters, placed)); diff != "" {
				t.Errorf("left out (-want +got):\n%s", diff)
			}
		})
	}
	msg := apiLeftOutMessage(spec(nil), []string{"member2"})
	if !strings.Contains(msg, "member2") || !strings.Contains(msg, gv+" "+kind) {
		t.Errorf("message %q names neither the member nor the API", msg)
	}
}
