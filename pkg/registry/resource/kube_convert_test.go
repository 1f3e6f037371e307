package resource

import (
	"context"
	"errors"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	api "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	secretstrategy "k8s.io/kubernetes/pkg/registry/core/secret"
)

// TestKubeStrategyStoresTheServedVersion: what is stored is the internal
// object converted back, as kube-apiserver stores it: a Secret's
// stringData is merged into data and gone.
func TestKubeStrategyStoresTheServedVersion(t *testing.T) {
	spec := &Spec{
		Resource: schema.GroupResource{Resource: "secrets"}, Kind: "Secret", Version: "v1", Namespaced: true,
		New: func() runtime.Object { return &corev1.Secret{} }, NewList: func() runtime.Object { return &corev1.SecretList{} },
		Kube: &KubeStrategy{Scheme: legacyscheme.Scheme, Internal: func() runtime.Object { return &api.Secret{} }, Main: secretstrategy.Strategy},
	}
	st := newStrategy(legacyscheme.Scheme, spec)
	s := &corev1.Secret{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
		ObjectMeta: metav1.ObjectMeta{Name: "creds", Namespace: "default"},
		Data:       map[string][]byte{"user": []byte("old"), "keep": []byte("k")},
		StringData: map[string]string{"user": "admin"},
		Type:       corev1.SecretTypeOpaque,
	}
	st.PrepareForCreate(context.Background(), s)
	if s.StringData != nil {
		t.Errorf("stringData kept: %v", s.StringData)
	}
	if string(s.Data["user"]) != "admin" || string(s.Data["keep"]) != "k" {
		t.Errorf("data %v, want stringData merged over it", s.Data)
	}
	if s.APIVersion != "v1" || s.Kind != "Secret" {
		t.Errorf("type meta lost: %v", s.TypeMeta)
	}
}

// TestFieldErrors: an allocation's Invalid error becomes the field errors
// it was made of, with their messages; anything else is internal.
func TestFieldErrors(t *testing.T) {
	invalid := apierrors.NewInvalid(schema.GroupKind{Kind: "Service"}, "web", field.ErrorList{
		field.Invalid(field.NewPath("spec", "clusterIPs").Index(0), "x", "must be a valid IP address"),
		field.Required(field.NewPath("spec", "ports"), ""),
	})
	cases := []struct {
		name string
		err  error
		want []string // "field|type|body"
	}{
		{"invalid", invalid, []string{
			`spec.clusterIPs[0]|FieldValueInvalid|Invalid value: "x": must be a valid IP address`,
			`spec.ports|FieldValueRequired|Required value`,
		}},
		{"wrapped", errors.Join(errors.New("context"), invalid), []string{
			`spec.clusterIPs[0]|FieldValueInvalid|Invalid value: "x": must be a valid IP address`,
			`spec.ports|FieldValueRequired|Required value`,
		}},
		{"other", errors.New("boom"), []string{`<nil>|InternalError|Internal error: boom`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := fieldErrors(tc.err)
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i, e := range got {
				f := e.Field
				if f == "" {
					f = "<nil>"
				}
				if s := f + "|" + string(e.Type) + "|" + e.ErrorBody(); s != tc.want[i] {
					t.Errorf("error %d: %q, want %q", i, s, tc.want[i])
				}
			}
		})
	}
}
