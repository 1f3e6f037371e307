package validation

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
)

func policy(mutate func(*rolloutv1alpha1.RolloutPolicySpec)) *rolloutv1alpha1.RolloutPolicy {
	p := &rolloutv1alpha1.RolloutPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web"},
		Spec: rolloutv1alpha1.RolloutPolicySpec{
			ResourceSelectors: []policyv1alpha1.ResourceSelector{{APIVersion: "apps/v1", Kind: "Deployment"}},
			Waves: []rolloutv1alpha1.Wave{
				{Name: "canary", ClusterNames: []string{"member2"}, HealthyFor: &metav1.Duration{Duration: time.Minute}},
				{Name: "rest", Rest: true},
			}}}
	if mutate != nil {
		mutate(&p.Spec)
	}
	return p
}

func TestValidateRolloutPolicy(t *testing.T) {
	pct := func(s string) *intstr.IntOrString { v := intstr.FromString(s); return &v }
	tests := []struct {
		name   string
		mutate func(*rolloutv1alpha1.RolloutPolicySpec)
		want   string // "" for valid; else a field path the error names
	}{
		{"a valid policy passes", nil, ""},
		{"no selectors", func(s *rolloutv1alpha1.RolloutPolicySpec) { s.ResourceSelectors = nil }, "spec.resourceSelectors"},
		{"a selector of another namespace", func(s *rolloutv1alpha1.RolloutPolicySpec) { s.ResourceSelectors[0].Namespace = "other" }, "spec.resourceSelectors[0].namespace"},
		{"no waves", func(s *rolloutv1alpha1.RolloutPolicySpec) { s.Waves = nil }, "spec.waves"},
		{"a wave without a name", func(s *rolloutv1alpha1.RolloutPolicySpec) { s.Waves[0].Name = "" }, "spec.waves[0].name"},
		{"two waves of one name", func(s *rolloutv1alpha1.RolloutPolicySpec) { s.Waves[1].Name = "canary" }, "spec.waves[1].name"},
		{"rest before the last wave", func(s *rolloutv1alpha1.RolloutPolicySpec) { s.Waves[0].Rest = true; s.Waves[0].ClusterNames = nil }, "spec.waves[0].rest"},
		{"rest with names", func(s *rolloutv1alpha1.RolloutPolicySpec) { s.Waves[1].ClusterNames = []string{"m"} }, "spec.waves[1].rest"},
		{"a wave naming no cluster", func(s *rolloutv1alpha1.RolloutPolicySpec) { s.Waves[0].ClusterNames = nil }, "spec.waves[0].clusterNames"},
		{"a bad percentage", func(s *rolloutv1alpha1.RolloutPolicySpec) { s.Waves[0].MaxUnavailableClusters = pct("150%") }, "spec.waves[0].maxUnavailableClusters"},
		{"a good percentage", func(s *rolloutv1alpha1.RolloutPolicySpec) { s.Waves[0].MaxUnavailableClusters = pct("50%") }, ""},
		{"a negative healthyFor", func(s *rolloutv1alpha1.RolloutPolicySpec) { s.Waves[0].HealthyFor.Duration = -time.Second }, "spec.waves[0].healthyFor"},
		{"a zero timeout", func(s *rolloutv1alpha1.RolloutPolicySpec) { s.HealthCheck.Timeout = &metav1.Duration{} }, "spec.healthCheck.timeout"},
		{"a condition without a type", func(s *rolloutv1alpha1.RolloutPolicySpec) {
			s.HealthCheck.Condition = &rolloutv1alpha1.ConditionCheck{}
		}, "spec.healthCheck.condition.type"},
		{"an unknown failure action", func(s *rolloutv1alpha1.RolloutPolicySpec) { s.OnFailure = "Explode" }, "spec.onFailure"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			errs := ValidateRolloutPolicy(policy(tc.mutate))
			if tc.want == "" {
				if len(errs) > 0 {
					t.Fatalf("refused: %v", errs)
				}
				return
			}
			if !strings.Contains(errs.ToAggregate().Error(), tc.want) {
				t.Fatalf("errors %v do not name %s", errs, tc.want)
			}
		})
	}
}
