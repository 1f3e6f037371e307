package options

import (
	"context"
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/initializer"
	"k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle"
	"k8s.io/apiserver/pkg/endpoints/discovery/aggregated"
	openapinamer "k8s.io/apiserver/pkg/endpoints/openapi"
	genericapiserver "k8s.io/apiserver/pkg/server"
	genericfilters "k8s.io/apiserver/pkg/server/filters"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	apiregistrationv1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"
	"k8s.io/kubernetes/pkg/capabilities"

	"github.com/mco-org/mco/pkg/apiserver"
	"github.com/mco-org/mco/pkg/apiserver/addonaccess"
	"github.com/mco-org/mco/pkg/apiserver/agentrestriction"
	"github.com/mco-org/mco/pkg/apiserver/customizations"
	"github.com/mco-org/mco/pkg/apiserver/extensions"
	"github.com/mco-org/mco/pkg/apiserver/kubeapis"
	nscontroller "github.com/mco-org/mco/pkg/controllers/namespace"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	generatedopenapi "github.com/mco-org/mco/pkg/generated/openapi"
	"github.com/mco-org/mco/pkg/kubeconfig"
	"github.com/mco-org/mco/pkg/registry/karmada"
	"github.com/mco-org/mco/pkg/registry/resource"
	"github.com/mco-org/mco/pkg/version"
)

// Config builds the server configuration from completed, valid options.
func (o *Options) Config(ctx context.Context) (*apiserver.Config, error) {
	// Kubernetes' pod validation reads the process-wide capabilities; the
	// first server of a process sets them.
	capabilities.Setup(o.AllowPrivileged, 0)
	karmadaOpts := karmada.WithAllowNoExecuteTaintPolicy(o.AllowNoExecuteTaintPolicy)
	resources := apiserver.Resources(karmadaOpts)
	if o.aggregated() {
		// Behind a host, templates, namespaces and Secrets are the host's.
		resources = apiserver.OwnResources(karmadaOpts)
	}
	for _, r := range resources {
		if r.Resource == (schema.GroupResource{Resource: "events"}) {
			r.TTL = o.EventTTL
		}
	}
	scheme, err := apiserver.NewScheme(resources, true)
	if err != nil {
		return nil, err
	}
	codecs := serializer.NewCodecFactory(scheme)
	gc := genericapiserver.NewConfig(codecs)
	gc.EffectiveVersion = apiserver.NewEffectiveVersion()

	if err := o.SecureServing.ApplyTo(&gc.SecureServing, &gc.LoopbackClientConfig); err != nil {
		return nil, fmt.Errorf("secure serving: %w", err)
	}
	// Watches and proxied requests (which may be watches) are not cut by
	// the request timeout, as in kube-apiserver.
	gc.LongRunningFunc = genericfilters.BasicLongRunningRequestCheck(
		sets.NewString("watch", "proxy"), sets.NewString("attach", "exec", "proxy", "log", "portforward"))
	if err := o.applyOpenAPI(gc, resources); err != nil {
		return nil, err
	}
	if err := o.applyStorage(gc, scheme, codecs, resources); err != nil {
		return nil, err
	}
	extra := apiserver.ExtraConfig{
		Scheme: scheme, Codecs: codecs, Resources: resources,
		ClusterProxyTimeout: o.ClusterProxyTimeout,
	}
	if o.aggregated() {
		err = o.applyAggregated(gc, &extra)
	} else {
		err = o.applyStandalone(gc, &extra)
	}
	if err != nil {
		return nil, err
	}
	dynamicClient, err := dynamic.NewForConfig(gc.LoopbackClientConfig)
	if err != nil {
		return nil, fmt.Errorf("loopback dynamic client: %w", err)
	}
	mcoClient, err := mcoclient.NewForConfig(kubeconfig.Protobuf(gc.LoopbackClientConfig))
	if err != nil {
		return nil, fmt.Errorf("loopback client: %w", err)
	}
	checks := []admission.Interface{customizations.NewOverlap(mcoClient), agentrestriction.New(),
		addonaccess.New(gc.Authorization.Authorizer)}
	if !o.aggregated() {
		checks = append(checks, extensions.NewSelectableFields(), extensions.NewGuard(servedGroups(resources)))
	}
	admissionChain, err := newAdmission(ctx, extra.KubeClient, dynamicClient, extra.KubeInformers, gc, admission.NewChainHandler(checks...))
	if err != nil {
		return nil, err
	}
	gc.AdmissionControl = admissionChain
	if !o.aggregated() {
		// CRDs and APIServices are served as kube-apiserver serves them:
		// the chain shares this configuration, completed.
		gc.AggregatedDiscoveryGroupManager = aggregated.NewResourceManager("apis")
		if extra.Chain, err = extensions.NewConfigs(gc, o.Etcd, extra.KubeInformers, o.storageOn); err != nil {
			return nil, err
		}
	}
	return &apiserver.Config{Generic: gc, Extra: extra}, nil
}

// applyOpenAPI names the served kinds' OpenAPI definitions.
func (o *Options) applyOpenAPI(gc *genericapiserver.Config, resources []*resource.Spec) error {
	// OpenAPI names come from a scheme without the internal registrations,
	// so that each kind is tagged with its served group-version-kind only.
	namerScheme, err := apiserver.NewScheme(resources, false)
	if err != nil {
		return err
	}
	if err := kubeapis.AddToScheme(namerScheme); err != nil {
		return err
	}
	if err := apiextensionsv1.AddToScheme(namerScheme); err != nil {
		return err
	}
	if err := apiregistrationv1.AddToScheme(namerScheme); err != nil {
		return err
	}
	namer := openapinamer.NewDefinitionNamer(namerScheme)
	gc.OpenAPIConfig = genericapiserver.DefaultOpenAPIConfig(generatedopenapi.GetOpenAPIDefinitions, namer)
	gc.OpenAPIConfig.Info.Title = "mco"
	gc.OpenAPIConfig.Info.Version = version.Get().GitVersion
	gc.OpenAPIV3Config = genericapiserver.DefaultOpenAPIV3Config(generatedopenapi.GetOpenAPIDefinitions, namer)
	gc.OpenAPIV3Config.Info.Title = "mco"
	gc.OpenAPIV3Config.Info.Version = version.Get().GitVersion
	return nil
}

// servedGroups are the API groups mco-apiserver serves: its table's,
// Kubernetes' storage providers', and those of the servers chained to it.
func servedGroups(resources []*resource.Spec) []string {
	groups := []string{apiextensionsv1.GroupName, apiregistrationv1.GroupName}
	for _, r := range resources {
		groups = append(groups, r.Resource.Group)
	}
	for _, gv := range kubeapis.Versions {
		groups = append(groups, gv.Group)
	}
	return groups
}

// newAdmission builds the admission chain: NamespaceLifecycle, which refuses
// objects in missing or terminating namespaces and protects the system
// ones, then extra (when not nil).
func newAdmission(ctx context.Context, kube kubernetes.Interface, dyn dynamic.Interface, inf informers.SharedInformerFactory, gc *genericapiserver.Config, extra admission.Interface) (admission.Interface, error) {
	nsLifecycle, err := lifecycle.NewLifecycle(sets.New(nscontroller.SystemNamespaces...))
	if err != nil {
		return nil, fmt.Errorf("namespace lifecycle admission: %w", err)
	}
	init := initializer.New(kube, dyn, inf, gc.Authorization.Authorizer, utilfeature.DefaultFeatureGate,
		gc.EffectiveVersion, ctx.Done(), nil)
	init.Initialize(nsLifecycle)
	if err := admission.ValidateInitialization(nsLifecycle); err != nil {
		return nil, fmt.Errorf("namespace lifecycle admission: %w", err)
	}
	if extra == nil {
		return admission.NewChainHandler(nsLifecycle), nil
	}
	return admission.NewChainHandler(nsLifecycle, extra), nil
}
