package reserved

import (
	"slices"
	"strings"
	"testing"

	appsv1alpha1 "github.com/mco-org/mco/pkg/apis/apps/v1alpha1"
	autoscalingv1alpha1 "github.com/mco-org/mco/pkg/apis/autoscaling/v1alpha1"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	remedyv1alpha1 "github.com/mco-org/mco/pkg/apis/remedy/v1alpha1"
	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

func TestReason(t *testing.T) {
	tests := []struct {
		group, want string // want "" when a CRD may be created
	}{
		{"policy.karmada.io", "served by mco-apiserver itself"},
		{"work.karmada.io", "served by mco-apiserver itself"},
		{"autoscaling.karmada.io", "served by mco-apiserver itself"},
		{"networking.karmada.io", "served by mco-apiserver itself"},
		{"remedy.karmada.io", "served by mco-apiserver itself"},
		{"search.karmada.io", "ResourceRegistry"},
		{rolloutv1alpha1.GroupName, "mco-org.github.io domain, mco's own"},
		{"addons.mco-org.github.io", "mco-org.github.io domain"},
		{"mco-org.github.io", "mco-org.github.io domain"},
		{"operator.karmada.io", ""},
		{"karmada.io", ""},
		{"example.karmada.io", ""},
		{"notmco-org.github.io", ""},
		{"example.com", ""},
	}
	for _, tt := range tests {
		got := Reason(tt.group)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("Reason(%q) = %q, want %q", tt.group, got, tt.want)
		}
	}
}

// TestServedKarmadaGroups: the list says served exactly for the Karmada
// groups mco has types for.
func TestServedKarmadaGroups(t *testing.T) {
	want := []string{appsv1alpha1.GroupName, autoscalingv1alpha1.GroupName, clusterv1alpha1.GroupName, configv1alpha1.GroupName, networkingv1alpha1.GroupName, policyv1alpha1.GroupName, remedyv1alpha1.GroupName, workv1alpha2.GroupName}
	got := ServedKarmadaGroups()
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("served Karmada groups %v, want %v", got, want)
	}
}
