package rollout

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	"github.com/mco-org/mco/pkg/metrics"
	"github.com/mco-org/mco/pkg/rollout"
)

// TestObserveKeepsOnlyTheStatusRevisions: a revision no cluster holds any
// more loses its series; other rollouts' series stay.
func TestObserveKeepsOnlyTheStatusRevisions(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := metrics.NewControllerManager(reg, "test")
	if err != nil {
		t.Fatal(err)
	}
	r := &Controller{metrics: m}
	clusters := func(revs ...int64) []rolloutv1alpha1.ClusterRevision {
		var out []rolloutv1alpha1.ClusterRevision
		for i, rev := range revs {
			out = append(out, rolloutv1alpha1.ClusterRevision{Name: string(rune('a' + i)), Revision: rev})
		}
		return out
	}
	web := &rolloutv1alpha1.Rollout{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web"}}
	other := &rolloutv1alpha1.Rollout{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "api"}}
	r.observe(other, rollout.Decision{Status: rolloutv1alpha1.RolloutStatus{Clusters: clusters(1)}})
	r.observe(web, rollout.Decision{Status: rolloutv1alpha1.RolloutStatus{Clusters: clusters(1, 1, 1)}})
	web.Status.Clusters = clusters(1, 1, 1)
	r.observe(web, rollout.Decision{Status: rolloutv1alpha1.RolloutStatus{Clusters: clusters(2, 1, 1)}})
	web.Status.Clusters = clusters(2, 1, 1)
	r.observe(web, rollout.Decision{Status: rolloutv1alpha1.RolloutStatus{Clusters: clusters(2, 2, 2)}})

	want := `
# HELP mco_rollout_clusters Clusters given each revision of a staged rollout.
# TYPE mco_rollout_clusters gauge
mco_rollout_clusters{namespace="shop",revision="1",rollout="api"} 1
mco_rollout_clusters{namespace="shop",revision="2",rollout="web"} 3
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "mco_rollout_clusters"); err != nil {
		t.Error(err)
	}
	r.forgetMetrics("shop", "web")
	want = `
# HELP mco_rollout_clusters Clusters given each revision of a staged rollout.
# TYPE mco_rollout_clusters gauge
mco_rollout_clusters{namespace="shop",revision="1",rollout="api"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "mco_rollout_clusters"); err != nil {
		t.Error(err)
	}
}
