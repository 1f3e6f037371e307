package v1alpha1_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/mco-org/mco/pkg/apis/internal/roundtrip"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

var roundTripKinds = []func() runtime.Object{
	func() runtime.Object { return &policyv1alpha1.PropagationPolicy{} },
	func() runtime.Object { return &policyv1alpha1.ClusterPropagationPolicy{} },
	func() runtime.Object { return &policyv1alpha1.OverridePolicy{} },
	func() runtime.Object { return &policyv1alpha1.ClusterOverridePolicy{} },
	func() runtime.Object { return &policyv1alpha1.ClusterTaintPolicy{} },
	func() runtime.Object { return &policyv1alpha1.FederatedResourceQuota{} },
}

// TestRoundTrip encodes many random objects of every kind and checks that
// strict decoding gives them back unchanged.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	roundtrip.Check(t, 1, 200, roundTripKinds...)
}

// FuzzRoundTrip lets go test -fuzz explore seeds beyond the fixed one.
func FuzzRoundTrip(f *testing.F) {
	for _, seed := range []int64{2, 3, 5, 8} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed int64) {
		roundtrip.Check(t, seed, 5, roundTripKinds...)
	})
}
