package extensions

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
)

func TestGuard(t *testing.T) {
	t.Parallel()
	g := NewGuard([]string{"", "apps", "networking.k8s.io", "policy.karmada.io"})
	cases := []struct {
		group string
		want  string // "" when accepted
	}{
		{"example.com", ""},
		{"gateway.networking.k8s.io", ""},
		{"snapshot.storage.k8s.io", ""},
		{"networking.k8s.io", "is served by mco-apiserver itself"},
		{"policy.karmada.io", "is served by mco-apiserver itself"},
		{"autoscaling.karmada.io", "is served by mco-apiserver itself"},
		{"search.karmada.io", "kept for mco to serve"},
		{"operator.karmada.io", ""},
		{"karmada.io", ""},
		{"rollout.mco-org.github.io", "mco-org.github.io domain"},
		{"notkarmada.io", ""},
	}
	crds := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	kind := schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}
	for _, tc := range cases {
		obj := &apiextensions.CustomResourceDefinition{ObjectMeta: metav1.ObjectMeta{Name: "things." + tc.group},
			Spec: apiextensions.CustomResourceDefinitionSpec{Group: tc.group}}
		a := admission.NewAttributesRecord(obj, nil, kind, "", obj.Name, crds, "", admission.Create, nil, false, nil)
		err := g.Validate(context.Background(), a, nil)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: refused: %v", tc.group, err)
			}
			continue
		}
		if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "spec.group") {
			t.Errorf("%s: %v, want an Invalid error on spec.group saying %q", tc.group, err, tc.want)
		}
	}
	// Custom resources and status writes pass untouched.
	a := admission.NewAttributesRecord(nil, nil, kind, "", "x", crds, "status", admission.Update, nil, false, nil)
	if err := g.Validate(context.Background(), a, nil); err != nil {
		t.Errorf("status write refused: %v", err)
	}
}

func TestPriorities(t *testing.T) {
	t.Parallel()
	p := Priorities([]string{"/api/v1", "/apis/apps/v1", "/apis/work.karmada.io/v1alpha1", "/apis/work.karmada.io/v1alpha2",
		"/apis/cluster.karmada.io/v1alpha1", "/apis/example.com/v1", "/apis"})
	gv := func(g, v string) Priority { return p[schema.GroupVersion{Group: g, Version: v}] }
	if gv("apps", "v1") != (Priority{Group: 17800, Version: 15}) {
		t.Errorf("apps/v1 %v, want kube-apiserver's", gv("apps", "v1"))
	}
	if w1, w2 := gv("work.karmada.io", "v1alpha1"), gv("work.karmada.io", "v1alpha2"); w2.Version <= w1.Version || w1.Group != 1000 {
		t.Errorf("work.karmada.io v1alpha1 %v, v1alpha2 %v: want v1alpha2 preferred, group at 1000", w1, w2)
	}
	if c := gv("cluster.karmada.io", "v1alpha1"); c.Group != 2000 {
		t.Errorf("cluster.karmada.io %v, want group priority 2000", c)
	}
	if a := gv("apiextensions.k8s.io", "v1"); a.Group == 0 {
		t.Error("apiextensions.k8s.io has no priority")
	}
}

func TestCustomResourceRules(t *testing.T) {
	t.Parallel()
	c := func(group, plural string) *apiextensionsv1.CustomResourceDefinition {
		return &apiextensionsv1.CustomResourceDefinition{Spec: apiextensionsv1.CustomResourceDefinitionSpec{Group: group,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: plural}}}
	}
	rules := customResourceRules([]*apiextensionsv1.CustomResourceDefinition{c("b.com", "things"), c("a.com", "widgets"), c("b.com", "apples")})
	if len(rules) != 2 || rules[0].APIGroups[0] != "a.com" || strings.Join(rules[1].Resources, ",") != "apples,apples/scale,apples/status,things,things/scale,things/status" {
		t.Errorf("rules %+v", rules)
	}
	for _, r := range rules {
		if strings.Join(r.Verbs, ",") != "get,list,watch,update,patch" {
			t.Errorf("verbs %v", r.Verbs)
		}
	}
	if got := customResourceRules(nil); len(got) != 0 {
		t.Errorf("no CRDs: %v", got)
	}
}

func TestUnbuildableSelectableFields(t *testing.T) {
	t.Parallel()
	structural := &apiextensions.JSONSchemaProps{Type: "object", Properties: map[string]apiextensions.JSONSchemaProps{
		"spec": {Type: "object", Properties: map[string]apiextensions.JSONSchemaProps{"color": {Type: "string"}}}}}
	ref := "#/definitions/spec"
	notStructural := &apiextensions.JSONSchemaProps{Type: "object", Properties: map[string]apiextensions.JSONSchemaProps{"spec": {Ref: &ref}}}
	fields := []apiextensions.SelectableField{{JSONPath: ".spec.color"}}
	version := func(schema *apiextensions.JSONSchemaProps, f []apiextensions.SelectableField) apiextensions.CustomResourceDefinitionVersion {
		v := apiextensions.CustomResourceDefinitionVersion{Name: "v1", SelectableFields: f}
		if schema != nil {
			v.Schema = &apiextensions.CustomResourceValidation{OpenAPIV3Schema: schema}
		}
		return v
	}
	cases := []struct {
		name string
		spec apiextensions.CustomResourceDefinitionSpec
		want int
	}{
		{"A structural per-version schema passes.", apiextensions.CustomResourceDefinitionSpec{Versions: []apiextensions.CustomResourceDefinitionVersion{version(structural, fields)}}, 0},
		{"A per-version schema that is not structural is refused.", apiextensions.CustomResourceDefinitionSpec{Versions: []apiextensions.CustomResourceDefinitionVersion{version(notStructural, fields)}}, 1},
		{"No schema at all is left to Kubernetes' own error.", apiextensions.CustomResourceDefinitionSpec{Versions: []apiextensions.CustomResourceDefinitionVersion{version(nil, fields)}}, 0},
		{"No selectable fields: nothing to check.", apiextensions.CustomResourceDefinitionSpec{Versions: []apiextensions.CustomResourceDefinitionVersion{version(notStructural, nil)}}, 0},
		{"A shared empty schema is refused on every version.", apiextensions.CustomResourceDefinitionSpec{
			Versions: []apiextensions.CustomResourceDefinitionVersion{{Name: "v1"}, {Name: "v2"}}, SelectableFields: fields,
			Validation: &apiextensions.CustomResourceValidation{}}, 2},
		{"A shared structural schema passes.", apiextensions.CustomResourceDefinitionSpec{
			Versions: []apiextensions.CustomResourceDefinitionVersion{{Name: "v1"}}, SelectableFields: fields,
			Validation: &apiextensions.CustomResourceValidation{OpenAPIV3Schema: structural}}, 0},
	}
	for _, tc := range cases {
		if got := unbuildableSelectableFields(&tc.spec); len(got) != tc.want {
			t.Errorf("%s: %v, want %d errors", tc.name, got, tc.want)
		}
	}
}
