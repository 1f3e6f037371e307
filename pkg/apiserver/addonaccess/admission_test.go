package addonaccess

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
)

// allow lets alice get what is listed as "resource namespace/name".
type allow map[string]bool

func (a allow) Authorize(_ context.Context, attrs authorizer.Attributes) (authorizer.Decision, string, error) {
	if attrs.GetVerb() == "get" && a[attrs.GetResource()+" "+attrs.GetNamespace()+"/"+attrs.GetName()] {
		return authorizer.DecisionAllow, "", nil
	}
	return authorizer.DecisionNoOpinion, "", nil
}

func TestValidate(t *testing.T) {
	a := &addonsv1alpha1.Addon{ObjectMeta: metav1.ObjectMeta{Name: "lc"}, Spec: addonsv1alpha1.AddonSpec{
		Chart: addonsv1alpha1.ChartSource{SecretRef: &addonsv1alpha1.SecretReference{Namespace: "platform", Name: "repo-creds"}},
		ValuesFrom: []addonsv1alpha1.ValuesReference{
			{Kind: "ConfigMap", Namespace: "platform", Name: "lc-values"},
			{Kind: "Secret", Namespace: "platform", Name: "lc-secrets"},
		},
	}}
	everything := allow{"secrets platform/repo-creds": true, "configmaps platform/lc-values": true, "secrets platform/lc-secrets": true}
	tests := []struct {
		name        string
		allowed     allow
		subresource string
		resource    string
		want        []string // fields refused
	}{
		{name: "a writer who may read everything named passes", allowed: everything},
		{name: "a writer who may read nothing named is refused on every field", allowed: allow{},
			want: []string{"spec.chart.secretRef", "spec.valuesFrom[0]", "spec.valuesFrom[1]"}},
		{name: "one Secret out of reach is named", allowed: allow{"secrets platform/repo-creds": true, "configmaps platform/lc-values": true},
			want: []string{"spec.valuesFrom[1]"}},
		{name: "status writes are the controller's and pass", allowed: allow{}, subresource: "status"},
		{name: "other resources pass", allowed: allow{}, resource: "rollouts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gvr := addonsv1alpha1.SchemeGroupVersion.WithResource("addons")
			if tt.resource != "" {
				gvr.Resource = tt.resource
			}
			attrs := admission.NewAttributesRecord(a, nil, addonsv1alpha1.SchemeGroupVersion.WithKind("Addon"), "", "lc", gvr,
				tt.subresource, admission.Create, &metav1.CreateOptions{}, false, &user.DefaultInfo{Name: "alice"})
			err := New(tt.allowed).Validate(context.Background(), attrs, nil)
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("admitted")
			}
			for _, f := range tt.want {
				if !strings.Contains(err.Error(), f+": Forbidden: alice may not get") {
					t.Errorf("refusal does not name %s: %v", f, err)
				}
			}
		})
	}
}
