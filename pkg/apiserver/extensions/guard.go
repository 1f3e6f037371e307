package extensions

import (
	"context"
	"fmt"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/admission"

	"github.com/mco-org/mco/pkg/apis/reserved"
)

// GuardPluginName is the admission plugin refusing CustomResourceDefinitions
// in groups mco serves.
const GuardPluginName = "MCOReservedGroups"

// Guard refuses a CustomResourceDefinition whose group mco serves itself
// or keeps (package reserved). kube-apiserver accepts such CRDs; on mco
// they would shadow its API.
type Guard struct {
	*admission.Handler
	served sets.Set[string]
}

var _ admission.ValidationInterface = &Guard{}

// NewGuard builds the guard for the groups served: every group of mco's
// table, of Kubernetes' storage providers and of the aggregator.
func NewGuard(served []string) *Guard {
	return &Guard{Handler: admission.NewHandler(admission.Create, admission.Update), served: sets.New(served...)}
}

// Validate implements admission.ValidationInterface.
func (g *Guard) Validate(_ context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	if a.GetResource().GroupResource() != apiextensions.Resource("customresourcedefinitions") || a.GetSubresource() != "" {
		return nil
	}
	crd, ok := a.GetObject().(*apiextensions.CustomResourceDefinition)
	if !ok {
		return nil
	}
	if why := g.reserved(crd.Spec.Group); why != "" {
		return apierrors.NewInvalid(a.GetKind().GroupKind(), a.GetName(), field.ErrorList{
			field.Forbidden(field.NewPath("spec", "group"), fmt.Sprintf("group %q %s: a CustomResourceDefinition in it would shadow mco's API", crd.Spec.Group, why)),
		})
	}
	return nil
}

// reserved says why group is mco's, or "" when it is not.
func (g *Guard) reserved(group string) string {
	if g.served.Has(group) {
		return "is served by mco-apiserver itself"
	}
	return reserved.Reason(group)
}
