package roundtrip_test

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	appsv1alpha1 "github.com/mco-org/mco/pkg/apis/apps/v1alpha1"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	"github.com/mco-org/mco/pkg/apis/internal/roundtrip"
	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	remedyv1alpha1 "github.com/mco-org/mco/pkg/apis/remedy/v1alpha1"
	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// allKinds returns a constructor for every kind (and list) of mco's groups.
func allKinds(t *testing.T) []func() runtime.Object {
	t.Helper()
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		addonsv1alpha1.AddToScheme, appsv1alpha1.AddToScheme, clusterv1alpha1.AddToScheme,
		configv1alpha1.AddToScheme, networkingv1alpha1.AddToScheme, policyv1alpha1.AddToScheme,
		remedyv1alpha1.AddToScheme, rolloutv1alpha1.AddToScheme, workv1alpha1.AddToScheme,
		workv1alpha2.AddToScheme,
	} {
		if err := add(scheme); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	types := map[string]reflect.Type{}
	for gvk, tp := range scheme.AllKnownTypes() {
		if !strings.HasPrefix(tp.PkgPath(), apisPrefix) {
			continue // meta/v1's options and events, registered in every group
		}
		key := gvk.String()
		names = append(names, key)
		types[key] = tp
	}
	sort.Strings(names)
	out := make([]func() runtime.Object, 0, len(names))
	for _, n := range names {
		tp := types[n]
		out = append(out, func() runtime.Object { return reflect.New(tp).Interface().(runtime.Object) })
	}
	return out
}

// TestEveryKindRoundTrips: random objects of every kind of mco's groups
// survive JSON, YAML and protobuf.
func TestEveryKindRoundTrips(t *testing.T) {
	t.Parallel()
	roundtrip.Check(t, 7, 50, allKinds(t)...)
}
