// Package apiserver assembles mco-apiserver: the scheme, the storage of every
// served resource, authentication and admission, following k8s.io/apiserver's
// Config -> Complete -> New.
package apiserver

import (
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/kubernetes/pkg/serviceaccount"

	"github.com/mco-org/mco/pkg/apiserver/extensions"
	"github.com/mco-org/mco/pkg/apiserver/kubeapis"
	"github.com/mco-org/mco/pkg/builtin"
	"github.com/mco-org/mco/pkg/registry/addon"
	"github.com/mco-org/mco/pkg/registry/karmada"
	"github.com/mco-org/mco/pkg/registry/resource"
	"github.com/mco-org/mco/pkg/registry/rollout"
)

// Resources returns every resource mco-apiserver serves; opts change how
// the Karmada kinds are validated.
func Resources(opts ...karmada.Option) []*resource.Spec {
	return append(builtin.Resources(), OwnResources(opts...)...)
}

// OwnResources are the resources of the groups mco-apiserver serves
// itself, also in aggregated mode: Karmada's groups and mco's own.
func OwnResources(opts ...karmada.Option) []*resource.Spec {
	return append(append(karmada.Resources(opts...), rollout.Resources()...), addon.Resources()...)
}

// ExtraConfig holds what mco-apiserver needs beyond the generic server.
type ExtraConfig struct {
	Scheme    *runtime.Scheme
	Codecs    serializer.CodecFactory
	Resources []*resource.Spec
	// KubeClient talks to this server over loopback (to the host when
	// Aggregated); KubeInformers feed the admission plugins and in-process
	// controllers.
	KubeClient    kubernetes.Interface
	KubeInformers informers.SharedInformerFactory
	// KubeGroups are the API groups served with Kubernetes' own storage
	// providers (RBAC, the reviews, and every built-in group outside
	// pkg/builtin), with the post-start hooks they ask for.
	KubeGroups *kubeapis.Installed
	// RBAC is set when RBAC authorizes: the bootstrap roles are reconciled
	// and the aggregated ClusterRoles kept filled.
	RBAC bool
	// ServiceAccountTokens signs what serviceaccounts/token issues.
	ServiceAccountTokens ServiceAccountTokens
	// Aggregated is set behind a host's aggregator: KubeClient and
	// KubeInformers reach the host, whose namespaces are those mco's
	// objects live in.
	Aggregated bool
	// Chain configures the aggregator in front of mco's server and the
	// apiextensions server behind it; nil when aggregated (the host serves
	// CRDs and APIServices there).
	Chain *extensions.Configs
	// ClusterProxyTimeout bounds the wait for a member's response headers
	// through clusters/{name}/proxy.
	ClusterProxyTimeout time.Duration
}

// Config is the configuration of mco-apiserver before completion.
type Config struct {
	Generic *genericapiserver.Config
	Extra   ExtraConfig
}

type completedConfig struct {
	generic genericapiserver.CompletedConfig
	extra   *ExtraConfig
}

// CompletedConfig is a Config with defaults filled in; only New accepts it.
type CompletedConfig struct {
	*completedConfig
}

// Complete fills in the defaults of the generic configuration.
func (c *Config) Complete() CompletedConfig {
	return CompletedConfig{&completedConfig{
		generic: c.Generic.Complete(c.Extra.KubeInformers),
		extra:   &c.Extra,
	}}
}

// ServiceAccountTokens configures the serviceaccounts/token subresource.
type ServiceAccountTokens struct {
	Generator serviceaccount.TokenGenerator
	// Audiences are those of a token that asks for none (the API's).
	Audiences []string
	// MaxExpiration caps a token's lifetime; 0 does not.
	MaxExpiration time.Duration
}
