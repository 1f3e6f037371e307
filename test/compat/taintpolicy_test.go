package compat

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/mco-org/mco/pkg/apiserver"
	"github.com/mco-org/mco/pkg/registry/resource"
)

// karmadaTaintPolicy is a ClusterTaintPolicy in the shape Karmada's
// documentation uses: every field of the kind set once.
const karmadaTaintPolicy = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterTaintPolicy
metadata:
  name: detect-cluster-notready
spec:
  targetClusters:
    clusterNames: [member1, member2]
    labelSelector: {matchLabels: {env: prod}}
  addOnConditions:
  - conditionType: Ready
    operator: NotIn
    statusValues: ["True"]
  - conditionType: NetworkAvailable
    operator: In
    statusValues: ["False", "Unknown"]
  removeOnConditions:
  - conditionType: Ready
    operator: In
    statusValues: ["True"]
  taints:
  - key: cluster.karmada.io/not-ready
    effect: NoExecute
  - key: cluster.karmada.io/not-ready
    value: "true"
    effect: NoSchedule
`

// TestKarmadaClusterTaintPolicyDecodesStrictlyAndValidates: a Karmada
// ClusterTaintPolicy is accepted unchanged by mco's default server.
func TestKarmadaClusterTaintPolicyDecodesStrictlyAndValidates(t *testing.T) {
	t.Parallel()
	specs := apiserver.Resources()
	scheme, err := apiserver.NewScheme(specs, false)
	if err != nil {
		t.Fatal(err)
	}
	decoder := serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
	obj, gvk, err := decoder.Decode([]byte(karmadaTaintPolicy), nil, nil)
	if err != nil {
		t.Fatalf("strict decode: %v", err)
	}
	var spec *resource.Spec
	for _, s := range specs {
		if s.GroupVersion().WithKind(s.Kind) == *gvk {
			spec = s
		}
	}
	if spec == nil {
		t.Fatalf("%s is not served", gvk)
	}
	if errs := validateAsServer(scheme, spec, obj); len(errs) > 0 {
		t.Errorf("refused: %v", errs.ToAggregate())
	}
}
