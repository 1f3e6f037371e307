package apiserver

import (
	"fmt"
	"sort"

	appsv1 "k8s.io/api/apps/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	metricsinstall "k8s.io/metrics/pkg/apis/metrics/install"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	appsv1alpha1 "github.com/mco-org/mco/pkg/apis/apps/v1alpha1"
	autoscalingkarmadav1alpha1 "github.com/mco-org/mco/pkg/apis/autoscaling/v1alpha1"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	remedyv1alpha1 "github.com/mco-org/mco/pkg/apis/remedy/v1alpha1"
	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/builtin"
	"github.com/mco-org/mco/pkg/registry/resource"
)

// versionPriority orders the versions of groups served in more than one.
var versionPriority = map[string][]string{
	workv1alpha2.GroupName: {workv1alpha2.SchemeGroupVersion.Version, workv1alpha1.SchemeGroupVersion.Version},
}

// NewScheme returns a scheme with every kind mco-apiserver serves.
//
// Each served kind is registered a second time, as the same Go type, under
// its group's internal version: the generic registry stores and handles
// "internal" objects, and with identical types it needs no conversions.
// withInternal=false leaves that out, for the OpenAPI namer.
func NewScheme(specs []*resource.Spec, withInternal bool) (*runtime.Scheme, error) {
	scheme := runtime.NewScheme()
	builders := []func(*runtime.Scheme) error{
		corev1.AddToScheme, appsv1.AddToScheme, appsv1alpha1.AddToScheme, batchv1.AddToScheme,
		coordinationv1.AddToScheme, autoscalingv1.AddToScheme,
		policyv1alpha1.AddToScheme, workv1alpha1.AddToScheme, workv1alpha2.AddToScheme,
		clusterv1alpha1.AddToScheme, configv1alpha1.AddToScheme, rolloutv1alpha1.AddToScheme, addonsv1alpha1.AddToScheme, remedyv1alpha1.AddToScheme,
		networkingv1alpha1.AddToScheme, autoscalingkarmadav1alpha1.AddToScheme,
		builtin.AddDefaults,
		// metrics.k8s.io, read from the members: internal and served versions.
		func(s *runtime.Scheme) error { metricsinstall.Install(s); return nil },
	}
	for _, add := range builders {
		if err := add(scheme); err != nil {
			return nil, fmt.Errorf("build scheme: %w", err)
		}
	}
	scheme.AddKnownTypes(authenticationv1.SchemeGroupVersion, &authenticationv1.TokenRequest{})
	// Types the generic server writes unversioned (status, discovery).
	metav1.AddToGroupVersion(scheme, schema.GroupVersion{Version: "v1"})
	scheme.AddUnversionedTypes(schema.GroupVersion{Group: "", Version: "v1"},
		&metav1.Status{}, &metav1.APIVersions{}, &metav1.APIGroupList{}, &metav1.APIGroup{}, &metav1.APIResourceList{})

	groups := map[string][]schema.GroupVersion{}
	for _, s := range specs {
		if withInternal {
			scheme.AddKnownTypes(s.InternalGroupVersion(), s.New(), s.NewList())
		}
		if err := addFieldLabelConversion(scheme, s); err != nil {
			return nil, err
		}
		gv := s.GroupVersion()
		if !containsGV(groups[gv.Group], gv) {
			groups[gv.Group] = append(groups[gv.Group], gv)
		}
	}
	if withInternal {
		// The scale subresource answers with autoscaling/v1 Scale.
		scheme.AddKnownTypes(schema.GroupVersion{Group: autoscalingv1.GroupName, Version: runtime.APIVersionInternal}, &autoscalingv1.Scale{})
		// serviceaccounts/token takes and answers authentication.k8s.io/v1
		// TokenRequest.
		scheme.AddKnownTypes(schema.GroupVersion{Group: authenticationv1.GroupName, Version: runtime.APIVersionInternal}, &authenticationv1.TokenRequest{})
	}
	for group, gvs := range groups {
		if order, ok := versionPriority[group]; ok {
			gvs = gvs[:0]
			for _, v := range order {
				gvs = append(gvs, schema.GroupVersion{Group: group, Version: v})
			}
		}
		if err := scheme.SetVersionPriority(gvs...); err != nil {
			return nil, fmt.Errorf("set version priority of %q: %w", group, err)
		}
	}
	return scheme, nil
}

// addFieldLabelConversion lets clients select on the spec's extra fields.
func addFieldLabelConversion(scheme *runtime.Scheme, s *resource.Spec) error {
	if s.Fields == nil {
		return nil
	}
	allowed := map[string]bool{"metadata.name": true}
	if s.Namespaced {
		allowed["metadata.namespace"] = true
	}
	for k := range s.Fields(s.New()) {
		allowed[k] = true
	}
	gvk := s.GroupVersion().WithKind(s.Kind)
	err := scheme.AddFieldLabelConversionFunc(gvk, func(label, value string) (string, string, error) {
		if allowed[label] {
			return label, value, nil
		}
		return "", "", fmt.Errorf("field label %q not supported for %s; supported: %v", label, s.Kind, sortedKeys(allowed))
	})
	if err != nil {
		return fmt.Errorf("field selectors of %s: %w", gvk, err)
	}
	return nil
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func containsGV(list []schema.GroupVersion, gv schema.GroupVersion) bool {
	for _, x := range list {
		if x == gv {
			return true
		}
	}
	return false
}
