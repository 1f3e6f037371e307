package apiserver

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"k8s.io/apiserver/pkg/authentication/authenticator"
	"k8s.io/apiserver/pkg/authentication/group"
	"k8s.io/apiserver/pkg/authentication/request/bearertoken"
	"k8s.io/apiserver/pkg/authentication/request/union"
	x509request "k8s.io/apiserver/pkg/authentication/request/x509"
	"k8s.io/apiserver/pkg/authentication/token/tokenfile"
	tokenunion "k8s.io/apiserver/pkg/authentication/token/union"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/server/dynamiccertificates"
)

// healthPaths may be read without credentials, so that probes and load
// balancers need none; every other request without credentials gets 401.
var healthPaths = []string{"/livez", "/readyz", "/healthz"}

func isHealthPath(path string) bool {
	for _, p := range healthPaths {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// NewAuthenticator accepts client certificates signed by the client CA,
// the bearer tokens of serviceAccounts (nil: none) and, when tokenFile is
// set, those listed in it (Kubernetes' static token CSV format:
// token,user,uid,"group1,group2").
func NewAuthenticator(clientCA dynamiccertificates.CAContentProvider, tokenFile string, serviceAccounts authenticator.Token) (authenticator.Request, error) {
	authenticators := []authenticator.Request{
		newCertCache(x509request.NewDynamic(clientCA.VerifyOptions, x509request.CommonNameUserConversion), clientCA.CurrentCABundleContent),
	}
	var tokens []authenticator.Token
	if tokenFile != "" {
		static, err := tokenfile.NewCSV(tokenFile)
		if err != nil {
			return nil, fmt.Errorf("load token file %s: %w", tokenFile, err)
		}
		tokens = append(tokens, static)
	}
	if serviceAccounts != nil {
		tokens = append(tokens, serviceAccounts)
	}
	if len(tokens) > 0 {
		authenticators = append(authenticators, bearertoken.New(tokenunion.New(tokens...)))
	}
	authenticators = append(authenticators, authenticator.RequestFunc(anonymousHealth))
	return group.NewAuthenticatedGroupAdder(union.New(authenticators...)), nil
}

// anonymousHealth lets requests without credentials reach the health paths.
func anonymousHealth(req *http.Request) (*authenticator.Response, bool, error) {
	if !isHealthPath(req.URL.Path) {
		return nil, false, nil
	}
	return &authenticator.Response{User: &user.DefaultInfo{
		Name:   user.Anonymous,
		Groups: []string{user.AllUnauthenticated},
	}}, true, nil
}

// Authorization modes, by --authorization-mode value.
const (
	// ModeRBAC authorizes as kube-apiserver does with RBAC (the default).
	ModeRBAC = "RBAC"
	// ModeAllowAuthenticated lets every authenticated user do everything.
	ModeAllowAuthenticated = "AllowAuthenticated"
)

// AuthorizationModes are the values --authorization-mode accepts.
var AuthorizationModes = []string{ModeRBAC, ModeAllowAuthenticated}

// AllowAuthenticated is the authorizer of ModeAllowAuthenticated.
var AllowAuthenticated authorizer.Authorizer = allowAuthenticated{}

// allowAuthenticated lets every authenticated user do everything, and
// anonymous users read the health paths only.
type allowAuthenticated struct{}

func (allowAuthenticated) Authorize(_ context.Context, a authorizer.Attributes) (authorizer.Decision, string, error) {
	u := a.GetUser()
	if u == nil {
		return authorizer.DecisionDeny, "no user", nil
	}
	for _, g := range u.GetGroups() {
		if g == user.AllAuthenticated {
			return authorizer.DecisionAllow, "", nil
		}
	}
	if !a.IsResourceRequest() && a.GetVerb() == "get" && isHealthPath(a.GetPath()) {
		return authorizer.DecisionAllow, "", nil
	}
	return authorizer.DecisionDeny, "only authenticated users may use this API", nil
}

// ConditionsAwareAuthorize gives the same, unconditional answer as Authorize.
func (a allowAuthenticated) ConditionsAwareAuthorize(ctx context.Context, attrs authorizer.Attributes) authorizer.ConditionsAwareDecision {
	return authorizer.ConditionsAwareDecisionFromParts(a.Authorize(ctx, attrs))
}

// EvaluateConditions is never needed: this authorizer sets no conditions.
func (allowAuthenticated) EvaluateConditions(context.Context, authorizer.ConditionsAwareDecision, authorizer.ConditionsData) (authorizer.Decision, string, error) {
	return authorizer.DecisionDeny, "", authorizer.ErrorConditionEvaluationNotSupported
}
