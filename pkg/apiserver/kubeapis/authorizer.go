package kubeapis

import (
	"fmt"

	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/authorization/authorizerfactory"
	"k8s.io/apiserver/pkg/authorization/union"
	"k8s.io/client-go/informers"
	"k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac"
)

// NewRBACAuthorizer authorizes as kube-apiserver does with
// --authorization-mode=RBAC: members of system:masters may do everything,
// everyone else what their Roles and ClusterRoles bound to them grant. It
// reads RBAC objects from inf (started by the caller) and also resolves
// the rules a user holds, for SelfSubjectRulesReview.
func NewRBACAuthorizer(inf informers.SharedInformerFactory) (authorizer.Authorizer, authorizer.RuleResolver, error) {
	r := inf.Rbac().V1()
	rbacAuthorizer := rbac.New(
		&rbac.RoleGetter{Lister: r.Roles().Lister()},
		&rbac.RoleBindingLister{Lister: r.RoleBindings().Lister()},
		&rbac.ClusterRoleGetter{Lister: r.ClusterRoles().Lister()},
		&rbac.ClusterRoleBindingLister{Lister: r.ClusterRoleBindings().Lister()},
	)
	masters := authorizerfactory.NewPrivilegedGroups(user.SystemPrivilegedGroup)
	authz, err := union.New(
		union.NamedAuthorizer{AuthorizerName: "system:masters", Authorizer: masters},
		union.NamedAuthorizer{AuthorizerName: "RBAC", Authorizer: rbacAuthorizer},
	)
	if err != nil {
		return nil, nil, fmt.Errorf("RBAC authorizer: %w", err)
	}
	// system:masters' rules come from the bootstrap binding of
	// cluster-admin to it, through RBAC like everyone's.
	return authz, rbacAuthorizer, nil
}
