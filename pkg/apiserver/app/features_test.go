package app

import (
	"context"
	"testing"

	"k8s.io/apiserver/pkg/features"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
)

// TestFeatureGatesFlag: --feature-gates sets k8s.io/apiserver's gates, as
// kube-apiserver's does.
func TestFeatureGatesFlag(t *testing.T) {
	cmd := NewCommand(context.Background())
	before := utilfeature.DefaultFeatureGate.Enabled(features.ListFromCacheSnapshot)
	t.Cleanup(func() {
		if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{string(features.ListFromCacheSnapshot): before}); err != nil {
			t.Error(err)
		}
	})
	if !before {
		t.Fatal("ListFromCacheSnapshot is off before any flag; Kubernetes' default is on")
	}
	if err := cmd.Flags().Parse([]string{"--feature-gates=ListFromCacheSnapshot=false"}); err != nil {
		t.Fatal(err)
	}
	if utilfeature.DefaultFeatureGate.Enabled(features.ListFromCacheSnapshot) {
		t.Error("--feature-gates=ListFromCacheSnapshot=false did not turn it off")
	}
}
