package options

import (
	"errors"
	"fmt"

	"github.com/spf13/pflag"
	genericapiserver "k8s.io/apiserver/pkg/server"
	genericoptions "k8s.io/apiserver/pkg/server/options"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/mco-org/mco/pkg/apiserver"
)

// Values of --mode.
const (
	// ModeStandalone serves the resource templates (Deployments, ...),
	// namespaces, RBAC and ServiceAccounts itself, and authenticates and
	// authorizes every request.
	ModeStandalone = "standalone"
	// ModeAggregated serves mco's Karmada groups only, behind a host
	// cluster's kube-apiserver (its aggregation layer), which authenticates
	// and authorizes for it; templates, namespaces and Secrets are the host's.
	ModeAggregated = "aggregated"
)

// Modes are the values --mode accepts.
var Modes = []string{ModeStandalone, ModeAggregated}

// Aggregated are the flags of --mode=aggregated: the host cluster, and the
// delegation of authentication (front-proxy request headers, TokenReview)
// and authorization (SubjectAccessReview) to it, as k8s.io/apiserver's
// delegating options do it.
type Aggregated struct {
	// HostKubeconfig reaches the host cluster's kube-apiserver: namespaces
	// for admission, member credentials for the cluster proxy. Empty: the
	// in-cluster configuration.
	HostKubeconfig string
	Authentication *genericoptions.DelegatingAuthenticationOptions
	Authorization  *genericoptions.DelegatingAuthorizationOptions
}

func newAggregated() Aggregated {
	return Aggregated{
		Authentication: genericoptions.NewDelegatingAuthenticationOptions(),
		Authorization:  genericoptions.NewDelegatingAuthorizationOptions(),
	}
}

// addFlags registers the flags. --client-ca-file is mco-apiserver's own
// flag; in aggregated mode it is the CA of client certificates the host's
// users present directly (default: the host's, from the
// extension-apiserver-authentication ConfigMap).
func (a *Aggregated) addFlags(fs *pflag.FlagSet) {
	only := " Used with --mode=aggregated only."
	fs.StringVar(&a.HostKubeconfig, "kubeconfig", a.HostKubeconfig,
		"Kubeconfig of the host cluster whose kube-apiserver aggregates mco-apiserver: namespaces are checked and member credentials read there. Empty: the in-cluster configuration."+only)
	authn := a.Authentication
	fs.StringVar(&authn.RemoteKubeConfigFile, "authentication-kubeconfig", authn.RemoteKubeConfigFile,
		"Kubeconfig of the host with the right to create tokenreviews.authentication.k8s.io and to read the extension-apiserver-authentication ConfigMap in kube-system. Default: --kubeconfig."+only)
	fs.DurationVar(&authn.CacheTTL, "authentication-token-webhook-cache-ttl", authn.CacheTTL,
		"How long the host's TokenReview answers are cached."+only)
	fs.BoolVar(&authn.SkipInClusterLookup, "authentication-skip-lookup", authn.SkipInClusterLookup,
		"Do not read the client and front-proxy CAs missing from the flags from the host's extension-apiserver-authentication ConfigMap."+only)
	fs.BoolVar(&authn.TolerateInClusterLookupFailure, "authentication-tolerate-lookup-failure", authn.TolerateInClusterLookupFailure,
		"Start even when the host's extension-apiserver-authentication ConfigMap cannot be read; requests may then all be anonymous."+only)
	authn.RequestHeader.AddFlags(fs)
	a.Authorization.AddFlags(fs)
	for _, name := range []string{"requestheader-username-headers", "requestheader-uid-headers", "requestheader-group-headers",
		"requestheader-extra-headers-prefix", "requestheader-client-ca-file", "requestheader-allowed-names",
		"authorization-kubeconfig", "authorization-webhook-cache-authorized-ttl",
		"authorization-webhook-cache-unauthorized-ttl", "authorization-always-allow-paths"} {
		fs.Lookup(name).Usage += only
	}
	fs.Lookup("authorization-kubeconfig").Usage += " Default: --kubeconfig."
}

// complete defaults the delegation's kubeconfigs to the host's and the
// directly presented client certificates' CA to clientCA.
func (a *Aggregated) complete(clientCA string) {
	if a.Authentication.RemoteKubeConfigFile == "" {
		a.Authentication.RemoteKubeConfigFile = a.HostKubeconfig
	}
	if a.Authorization.RemoteKubeConfigFile == "" {
		a.Authorization.RemoteKubeConfigFile = a.HostKubeconfig
	}
	a.Authentication.ClientCert.ClientCA = clientCA
}

func (a *Aggregated) validate() []error {
	errs := a.Authentication.Validate()
	return append(errs, a.Authorization.Validate()...)
}

// validateAggregated refuses what has no meaning behind a host.
func (o *Options) validateAggregated() []error {
	var errs []error
	if o.ClientCA.KeyFile != "" {
		errs = append(errs, errors.New("--client-ca-key-file has no use with --mode=aggregated: clients authenticate to the host"))
	}
	if o.TokenAuthFile != "" {
		errs = append(errs, errors.New("--token-auth-file has no use with --mode=aggregated: the host authenticates bearer tokens"))
	}
	if o.AuthorizationMode != apiserver.ModeRBAC {
		errs = append(errs, errors.New("--authorization-mode has no use with --mode=aggregated: the host authorizes (SubjectAccessReview)"))
	}
	return append(errs, o.Aggregated.validate()...)
}

// hostConfig is the client configuration of the host cluster.
func (a *Aggregated) hostConfig() (*rest.Config, error) {
	if a.HostKubeconfig == "" {
		cfg, err := rest.InClusterConfig()
		if err != nil {
			return nil, fmt.Errorf("host cluster: no --kubeconfig and no in-cluster configuration: %w", err)
		}
		return cfg, nil
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", a.HostKubeconfig)
	if err != nil {
		return nil, fmt.Errorf("host cluster kubeconfig %s: %w", a.HostKubeconfig, err)
	}
	return cfg, nil
}

// applyTo makes the host authenticate (front-proxy request headers, client
// certificates, TokenReview) and authorize (SubjectAccessReview, with the
// health paths and system:masters always allowed) every request.
func (a *Aggregated) applyTo(gc *genericapiserver.Config) error {
	if err := a.Authentication.ApplyTo(&gc.Authentication, gc.SecureServing, gc.OpenAPIConfig); err != nil {
		return fmt.Errorf("delegated authentication: %w", err)
	}
	if err := a.Authorization.ApplyTo(&gc.Authorization); err != nil {
		return fmt.Errorf("delegated authorization: %w", err)
	}
	return nil
}

// applyAggregated delegates authentication and authorization to the host
// and takes namespaces and member credentials from it.
func (o *Options) applyAggregated(gc *genericapiserver.Config, extra *apiserver.ExtraConfig) error {
	host, err := o.Aggregated.hostConfig()
	if err != nil {
		return err
	}
	kubeClient, err := kubernetes.NewForConfig(host)
	if err != nil {
		return fmt.Errorf("host client: %w", err)
	}
	if err := o.Aggregated.applyTo(gc); err != nil {
		return err
	}
	extra.KubeClient = kubeClient
	extra.KubeInformers = informers.NewSharedInformerFactory(kubeClient, informerResync)
	extra.Aggregated = true
	return nil
}
