// Package extensions chains mco-apiserver as kube-apiserver is chained:
// the kube-aggregator in front (APIServices, and the discovery and OpenAPI
// of every server behind it merged), mco's own server in the middle, and
// the apiextensions server last (CustomResourceDefinitions and their
// custom resources). Each server delegates what it does not serve to the
// next; only the front one authenticates and authorizes, with the
// configuration all three share.
package extensions

import (
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsv1beta1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1"
	apiextensionsapiserver "k8s.io/apiextensions-apiserver/pkg/apiserver"
	apiextensionsoptions "k8s.io/apiextensions-apiserver/pkg/cmd/server/options"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericregistry "k8s.io/apiserver/pkg/registry/generic"
	genericapiserver "k8s.io/apiserver/pkg/server"
	genericoptions "k8s.io/apiserver/pkg/server/options"
	"k8s.io/client-go/informers"
	apiregistrationv1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"
	apiregistrationv1beta1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1beta1"
	aggregatorapiserver "k8s.io/kube-aggregator/pkg/apiserver"
	aggregatorscheme "k8s.io/kube-aggregator/pkg/apiserver/scheme"
)

// Configs are the configurations of the servers around mco's own.
type Configs struct {
	Extensions *apiextensionsapiserver.Config
	Aggregator *aggregatorapiserver.Config
}

// NewConfigs derives the apiextensions and aggregator configurations from
// mco-apiserver's complete generic configuration gc (serving, the filters'
// authentication, authorization and audit, admission, OpenAPI) and its
// etcd options. Each stores its kinds in the same etcd, in the versions
// kube-apiserver stores them. storage wraps every options getter the
// storage is built from (nil: none).
func NewConfigs(gc *genericapiserver.Config, etcd *genericoptions.EtcdOptions, inf informers.SharedInformerFactory,
	storage func(genericregistry.RESTOptionsGetter) genericregistry.RESTOptionsGetter) (*Configs, error) {
	if storage == nil {
		storage = func(g genericregistry.RESTOptionsGetter) genericregistry.RESTOptionsGetter { return g }
	}
	ext := derive(gc)
	extEtcd, err := applyStorage(&ext, etcd, apiextensionsapiserver.Codecs.LegacyCodec(apiextensionsv1beta1.SchemeGroupVersion, apiextensionsv1.SchemeGroupVersion),
		apiextensionsv1beta1.SchemeGroupVersion)
	if err != nil {
		return nil, fmt.Errorf("apiextensions storage: %w", err)
	}
	ext.MergedResourceConfig = apiextensionsapiserver.DefaultAPIResourceConfigSource()
	ext.RESTOptionsGetter = storage(ext.RESTOptionsGetter)

	agg := derive(gc)
	// The aggregator serves the merged OpenAPI itself.
	agg.SkipOpenAPIInstallation = true
	if _, err := applyStorage(&agg, etcd, aggregatorscheme.Codecs.LegacyCodec(apiregistrationv1.SchemeGroupVersion, apiregistrationv1beta1.SchemeGroupVersion),
		apiregistrationv1.SchemeGroupVersion); err != nil {
		return nil, fmt.Errorf("aggregator storage: %w", err)
	}
	agg.MergedResourceConfig = aggregatorapiserver.DefaultAPIResourceConfigSource()
	agg.RESTOptionsGetter = storage(agg.RESTOptionsGetter)

	return &Configs{
		Extensions: &apiextensionsapiserver.Config{
			GenericConfig: &genericapiserver.RecommendedConfig{Config: ext, SharedInformerFactory: inf},
			ExtraConfig: apiextensionsapiserver.ExtraConfig{
				CRDRESTOptionsGetter: storage(apiextensionsoptions.NewCRDRESTOptionsGetter(extEtcd, ext.ResourceTransformers, ext.StorageObjectCountTracker)),
				MasterCount:          1,
				ServiceResolver:      unreachableServices{},
			},
		},
		Aggregator: &aggregatorapiserver.Config{
			GenericConfig: &genericapiserver.RecommendedConfig{Config: agg, SharedInformerFactory: inf},
			ExtraConfig: aggregatorapiserver.ExtraConfig{
				ServiceResolver: unreachableServices{},
				// Members' Services have no endpoints on mco: an APIService
				// backed by one is a template, never proxied to.
				DisableRemoteAvailableConditionController: true,
			},
		},
	}, nil
}

// applyStorage gives c storage in etcd's cluster with codec, encoding
// objects in the version storedAs (and its group's kinds in it), and returns
// the etcd options it applied. The health checks of etcd stay mco's own.
func applyStorage(c *genericapiserver.Config, etcd *genericoptions.EtcdOptions, codec runtime.Codec, storedAs schema.GroupVersion) (genericoptions.EtcdOptions, error) {
	o := *etcd
	o.StorageConfig.Codec = codec
	o.StorageConfig.EncodeVersioner = runtime.NewMultiGroupVersioner(storedAs, schema.GroupKind{Group: storedAs.Group})
	o.SkipHealthEndpoints = true
	return o, o.ApplyTo(c)
}

// derive is a shallow copy of gc for another server of the chain: no
// post-start hooks of mco's (each server adds its own; names must not
// repeat) and no storage yet.
func derive(gc *genericapiserver.Config) genericapiserver.Config {
	c := *gc
	c.PostStartHooks = map[string]genericapiserver.PostStartHookConfigEntry{}
	c.RESTOptionsGetter = nil
	return c
}
