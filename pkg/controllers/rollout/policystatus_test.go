package rollout

import (
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
)

func TestCountRollouts(t *testing.T) {
	web := rolloutv1alpha1.PolicyReference{Kind: rolloutv1alpha1.ResourceKindRolloutPolicy, Namespace: "shop", Name: "web"}
	other := rolloutv1alpha1.PolicyReference{Kind: rolloutv1alpha1.ResourceKindClusterRolloutPolicy, Name: "all"}
	ro := func(name string, p rolloutv1alpha1.PolicyReference, state string) *rolloutv1alpha1.Rollout {
		return &rolloutv1alpha1.Rollout{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: name},
			Status: rolloutv1alpha1.RolloutStatus{Policy: p, CurrentRevision: 2, Wave: "canary",
				Clusters:   []rolloutv1alpha1.ClusterRevision{{Name: "member2", Revision: 2, Health: rolloutv1alpha1.ClusterHealthy}},
				Conditions: []metav1.Condition{{Type: state, Status: metav1.ConditionTrue}}}}
	}
	list := []*rolloutv1alpha1.Rollout{
		ro("c", web, rolloutv1alpha1.ConditionComplete), ro("a", web, rolloutv1alpha1.ConditionFailed),
		ro("b", web, rolloutv1alpha1.ConditionProgressing), ro("d", other, rolloutv1alpha1.ConditionPaused),
	}
	for i := 0; i < 60; i++ {
		list = append(list, ro(fmt.Sprintf("z%02d", i), web, rolloutv1alpha1.ConditionComplete))
	}
	st := countRollouts(list, web)
	if st.Rollouts != 63 || st.Complete != 61 || st.Failed != 1 || st.Progressing != 1 || st.Paused != 0 {
		t.Fatalf("counts %+v, want 63 rollouts: 61 complete, 1 failed, 1 progressing", st)
	}
	if len(st.Summaries) != rolloutv1alpha1.MaxSummaries || st.Summaries[0].Name != "a" || st.Summaries[0].State != rolloutv1alpha1.ConditionFailed {
		t.Fatalf("summaries: %d, first %+v; want %d, the first by name", len(st.Summaries), st.Summaries[0], rolloutv1alpha1.MaxSummaries)
	}
	if c := st.Summaries[0].Clusters; len(c) != 1 || c[0].Revision != 2 || c[0].Health != rolloutv1alpha1.ClusterHealthy {
		t.Fatalf("cluster summary %+v", c)
	}
}
