package options

import (
	"fmt"
	"time"

	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/authorization/authorizerfactory"
	"k8s.io/apiserver/pkg/authorization/union"
	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/apiserver/pkg/server/dynamiccertificates"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"

	"github.com/mco-org/mco/pkg/apiserver"
	"github.com/mco-org/mco/pkg/apiserver/agentrestriction"
	"github.com/mco-org/mco/pkg/apiserver/kubeapis"
)

// informerResync is the resync period of the informers of namespaces,
// RBAC and ServiceAccounts the server keeps.
const informerResync = 10 * time.Minute

// applyStandalone makes the server authenticate (client certificates,
// static and ServiceAccount tokens) and authorize (RBAC) by itself, and
// serve RBAC, the access reviews and ServiceAccount tokens.
func (o *Options) applyStandalone(gc *genericapiserver.Config, extra *apiserver.ExtraConfig) error {
	clientCA, err := dynamiccertificates.NewDynamicCAContentFromFile("client-ca", o.pki.CACert)
	if err != nil {
		return fmt.Errorf("client CA: %w", err)
	}
	gc.SecureServing.ClientCA = clientCA
	kubeClient, err := kubernetes.NewForConfig(gc.LoopbackClientConfig)
	if err != nil {
		return fmt.Errorf("loopback client: %w", err)
	}
	kubeInformers := informers.NewSharedInformerFactory(kubeClient, informerResync)
	audiences := []string{o.ServiceAccount.Issuer}
	saTokens, err := o.ServiceAccount.Authenticator(audiences, kubeInformers, kubeClient)
	if err != nil {
		return err
	}
	authn, err := apiserver.NewAuthenticator(clientCA, o.TokenAuthFile, saTokens)
	if err != nil {
		return err
	}
	gc.Authentication.Authenticator = authn
	gc.Authentication.APIAudiences = audiences
	tokenGenerator, err := o.ServiceAccount.Generator()
	if err != nil {
		return err
	}
	authz, rules, err := o.authorizer(kubeInformers)
	if err != nil {
		return err
	}
	gc.Authorization.Authorizer = authz
	kubeGroups, err := kubeapis.Config{
		Etcd: o.Etcd, Authorizer: authz, RuleResolver: rules, Authenticator: authn, APIAudiences: audiences,
		Discovery: kubeClient.Discovery(), EventTTL: o.EventTTL, Storage: o.storageOn,
	}.Groups()
	if err != nil {
		return err
	}
	extra.KubeClient, extra.KubeInformers = kubeClient, kubeInformers
	extra.KubeGroups = kubeGroups
	extra.RBAC = o.AuthorizationMode == apiserver.ModeRBAC
	extra.ServiceAccountTokens = apiserver.ServiceAccountTokens{Generator: tokenGenerator, Audiences: audiences,
		MaxExpiration: o.ServiceAccountMaxExpiration}
	return nil
}

// authorizer builds the authorizer --authorization-mode names, and the
// resolver of the rules a user holds (SelfSubjectRulesReview).
func (o *Options) authorizer(inf informers.SharedInformerFactory) (authorizer.Authorizer, authorizer.RuleResolver, error) {
	if o.AuthorizationMode == apiserver.ModeAllowAuthenticated {
		return apiserver.AllowAuthenticated, authorizerfactory.NewAlwaysAllowAuthorizer(), nil
	}
	rbac, rules, err := kubeapis.NewRBACAuthorizer(inf)
	if err != nil {
		return nil, nil, err
	}
	// Agents hold their own Works by identity, as kubelets their pods.
	authz, err := union.New(
		union.NamedAuthorizer{AuthorizerName: agentrestriction.PluginName, Authorizer: agentrestriction.Authorizer{}},
		union.NamedAuthorizer{AuthorizerName: apiserver.ModeRBAC, Authorizer: rbac},
	)
	if err != nil {
		return nil, nil, fmt.Errorf("authorizer: %w", err)
	}
	return authz, rules, nil
}
