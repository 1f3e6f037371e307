// Package addonaccess is mco-apiserver's admission rule for Addons: the
// controller-manager reads an Addon's values (valuesFrom) and repository
// credentials (chart.secretRef) with its own rights, so whoever creates or
// changes an Addon must be allowed to get each ConfigMap and Secret it
// names. Otherwise an Addon would be a way to read, or to ship to every
// member, a Secret its writer may not see (a confused deputy).
package addonaccess

import (
	"context"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authorization/authorizer"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
)

// PluginName names the rule.
const PluginName = "MCOAddonAccess"

var addons = addonsv1alpha1.Resource(addonsv1alpha1.ResourcePluralAddon)

// Plugin is the admission rule.
type Plugin struct {
	*admission.Handler
	authz authorizer.UnconditionalAuthorizer
}

var _ admission.ValidationInterface = &Plugin{}

// New returns the rule, asking authz.
func New(authz authorizer.UnconditionalAuthorizer) *Plugin {
	return &Plugin{Handler: admission.NewHandler(admission.Create, admission.Update), authz: authz}
}

// Reference is an object an Addon makes the controller-manager read.
type Reference struct {
	Field           *field.Path
	Resource        string // configmaps or secrets
	Namespace, Name string
}

// References lists what an Addon makes the controller-manager read.
func References(a *addonsv1alpha1.Addon) []Reference {
	var out []Reference
	if r := a.Spec.Chart.SecretRef; r != nil {
		out = append(out, Reference{field.NewPath("spec", "chart", "secretRef"), "secrets", r.Namespace, r.Name})
	}
	for i, v := range a.Spec.ValuesFrom {
		out = append(out, Reference{field.NewPath("spec", "valuesFrom").Index(i), strings.ToLower(v.Kind) + "s", v.Namespace, v.Name})
	}
	return out
}

// Validate implements admission.ValidationInterface.
func (p *Plugin) Validate(ctx context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	if a.GetResource().GroupResource() != addons || a.GetSubresource() != "" || a.GetUserInfo() == nil {
		return nil
	}
	obj, ok := a.GetObject().(*addonsv1alpha1.Addon)
	if !ok {
		return nil
	}
	var refused field.ErrorList
	for _, r := range References(obj) {
		decision, _, err := p.authz.Authorize(ctx, authorizer.AttributesRecord{
			User: a.GetUserInfo(), Verb: "get", Namespace: r.Namespace, Resource: r.Resource, Name: r.Name, ResourceRequest: true,
		})
		if err != nil || decision != authorizer.DecisionAllow {
			refused = append(refused, field.Forbidden(r.Field,
				fmt.Sprintf("%s may not get %s %s/%s, which the add-on would read", a.GetUserInfo().GetName(), r.Resource, r.Namespace, r.Name)))
		}
	}
	if len(refused) > 0 {
		return admission.NewForbidden(a, refused.ToAggregate())
	}
	return nil
}
