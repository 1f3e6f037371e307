package kubeapis

import (
	"fmt"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	discoveryv1 "k8s.io/api/discovery/v1"
	eventsv1 "k8s.io/api/events/v1"
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	networkingv1 "k8s.io/api/networking/v1"
	nodev1 "k8s.io/api/node/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/authentication/authenticator"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/registry/generic"
	genericapiserver "k8s.io/apiserver/pkg/server"
	genericoptions "k8s.io/apiserver/pkg/server/options"
	serverstorage "k8s.io/apiserver/pkg/server/storage"
	"k8s.io/client-go/discovery"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/admissionregistration/install" // internal types of the groups served here
	_ "k8s.io/kubernetes/pkg/apis/authentication/install"
	_ "k8s.io/kubernetes/pkg/apis/authorization/install"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/discovery/install"
	_ "k8s.io/kubernetes/pkg/apis/events/install"
	_ "k8s.io/kubernetes/pkg/apis/flowcontrol/install"
	_ "k8s.io/kubernetes/pkg/apis/networking/install"
	_ "k8s.io/kubernetes/pkg/apis/node/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	_ "k8s.io/kubernetes/pkg/apis/rbac/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
	admissionregistrationrest "k8s.io/kubernetes/pkg/registry/admissionregistration/rest"
	authenticationrest "k8s.io/kubernetes/pkg/registry/authentication/rest"
	authorizationrest "k8s.io/kubernetes/pkg/registry/authorization/rest"
	autoscalingrest "k8s.io/kubernetes/pkg/registry/autoscaling/rest"
	discoveryrest "k8s.io/kubernetes/pkg/registry/discovery/rest"
	eventsrest "k8s.io/kubernetes/pkg/registry/events/rest"
	flowcontrolrest "k8s.io/kubernetes/pkg/registry/flowcontrol/rest"
	networkingrest "k8s.io/kubernetes/pkg/registry/networking/rest"
	noderest "k8s.io/kubernetes/pkg/registry/node/rest"
	policyrest "k8s.io/kubernetes/pkg/registry/policy/rest"
	rbacrest "k8s.io/kubernetes/pkg/registry/rbac/rest"
	schedulingrest "k8s.io/kubernetes/pkg/registry/scheduling/rest"
	storagerest "k8s.io/kubernetes/pkg/registry/storage/rest"
)

func init() {
	// What every group of the scheme needs to be served: the unversioned
	// types (Status, ...) and the server-side tables.
	metav1.AddToGroupVersion(legacyscheme.Scheme, schema.GroupVersion{Version: "v1"})
	if err := metav1.AddMetaToScheme(legacyscheme.Scheme); err != nil {
		panic(err)
	}
}

// Versions are the group versions served here: every version kube-apiserver
// 1.37 serves by default in these groups.
var Versions = []schema.GroupVersion{
	rbacv1.SchemeGroupVersion, authorizationv1.SchemeGroupVersion, authenticationv1.SchemeGroupVersion,
	autoscalingv2.SchemeGroupVersion, autoscalingv1.SchemeGroupVersion, discoveryv1.SchemeGroupVersion,
	policyv1.SchemeGroupVersion, networkingv1.SchemeGroupVersion, storagev1.SchemeGroupVersion,
	schedulingv1.SchemeGroupVersion, nodev1.SchemeGroupVersion, admissionregistrationv1.SchemeGroupVersion,
	flowcontrolv1.SchemeGroupVersion, eventsv1.SchemeGroupVersion,
}

// NotServed are the resources of those versions mco deliberately leaves out:
// they describe a cluster's own nodes, volumes and address space, which
// only exist in the members (the README's table says why, one by one).
var NotServed = []schema.GroupVersionResource{
	networkingv1.SchemeGroupVersion.WithResource("ipaddresses"),
	networkingv1.SchemeGroupVersion.WithResource("servicecidrs"),
	storagev1.SchemeGroupVersion.WithResource("volumeattachments"),
	storagev1.SchemeGroupVersion.WithResource("csinodes"),
	storagev1.SchemeGroupVersion.WithResource("csistoragecapacities"),
}

// AddToScheme registers the served versions' types, for schemes that name
// OpenAPI definitions.
func AddToScheme(s *runtime.Scheme) error {
	for _, add := range []func(*runtime.Scheme) error{
		rbacv1.AddToScheme, authorizationv1.AddToScheme, authenticationv1.AddToScheme,
		autoscalingv1.AddToScheme, autoscalingv2.AddToScheme, discoveryv1.AddToScheme, policyv1.AddToScheme, networkingv1.AddToScheme,
		storagev1.AddToScheme, schedulingv1.AddToScheme, nodev1.AddToScheme, admissionregistrationv1.AddToScheme,
		flowcontrolv1.AddToScheme, eventsv1.AddToScheme,
	} {
		if err := add(s); err != nil {
			return err
		}
	}
	return nil
}

// Config is what Kubernetes' storage providers of the groups served here
// need.
type Config struct {
	Etcd *genericoptions.EtcdOptions
	// Authorizer decides escalation checks on Roles and bindings and the
	// access reviews; RuleResolver answers SelfSubjectRulesReview.
	Authorizer   authorizer.Authorizer
	RuleResolver authorizer.RuleResolver
	// Authenticator and APIAudiences answer TokenReview.
	Authenticator authenticator.Request
	APIAudiences  authenticator.Audiences
	// Discovery resolves the parameter kinds of admission policies; it
	// should reach this server (loopback).
	Discovery discovery.DiscoveryInterface
	// EventTTL is how long events.k8s.io Events are kept.
	EventTTL time.Duration
	// Storage, when set, wraps the options getter the storage is built
	// from (mco-apiserver's in-process storage on its embedded etcd).
	Storage func(generic.RESTOptionsGetter) generic.RESTOptionsGetter
}

// Installed are the API groups to install and the post-start hooks their
// providers ask for.
type Installed struct {
	Groups []*genericapiserver.APIGroupInfo
	Hooks  map[string]genericapiserver.PostStartHookFunc
}

type provider interface {
	NewRESTStorage(serverstorage.APIResourceConfigSource, generic.RESTOptionsGetter) (genericapiserver.APIGroupInfo, error)
	GroupName() string
}

// Groups builds the API groups served with Kubernetes' own storage. Objects
// are stored in etcd as kube-apiserver stores them: protobuf, in its
// storage version, under /registry/<resource>; events.k8s.io Events are the
// core Events' storage seen through another version, as in kube-apiserver.
func (c Config) Groups() (*Installed, error) {
	enabled := serverstorage.NewResourceConfig()
	enabled.EnableVersions(Versions...)
	enabled.DisableResources(NotServed...)
	// Ingresses are kept under kube-apiserver's prefix for them.
	prefixes := map[schema.GroupResource]string{networkingv1.Resource("ingresses"): "ingress"}
	factory := serverstorage.NewDefaultStorageFactory(c.Etcd.StorageConfig, runtime.ContentTypeProtobuf, legacyscheme.Codecs,
		serverstorage.NewDefaultResourceEncodingConfig(legacyscheme.Scheme), enabled, prefixes)
	var getter generic.RESTOptionsGetter = &genericoptions.StorageFactoryRestOptionsFactory{Options: *c.Etcd, StorageFactory: factory}
	if c.Storage != nil {
		getter = c.Storage(getter)
	}
	getter = newWithoutUnserved(getter)

	// The order is kube-apiserver's, which discovery keeps.
	providers := []provider{
		authenticationrest.RESTStorageProvider{Authenticator: c.Authenticator, APIAudiences: c.APIAudiences},
		authorizationrest.RESTStorageProvider{Authorizer: c.Authorizer, RuleResolver: c.RuleResolver},
		autoscalingrest.RESTStorageProvider{},
		// EndpointSlices: those mco collects from providers and
		// dispatches to consumers (services across clusters); never
		// templates.
		discoveryrest.StorageProvider{},
		networkingrest.RESTStorageProvider{},
		noderest.RESTStorageProvider{},
		policyrest.RESTStorageProvider{},
		rbacrest.RESTStorageProvider{Authorizer: c.Authorizer},
		schedulingrest.RESTStorageProvider{},
		storagerest.RESTStorageProvider{},
		// No InformerFactory: its post-start hook, which would write the
		// bootstrap FlowSchemas that configure a server's own priority and
		// fairness, is not run; on mco they are templates only.
		flowcontrolrest.RESTStorageProvider{},
		admissionregistrationrest.RESTStorageProvider{Authorizer: c.Authorizer, DiscoveryClient: c.Discovery},
		eventsrest.RESTStorageProvider{TTL: c.EventTTL},
	}
	out := &Installed{Hooks: map[string]genericapiserver.PostStartHookFunc{}}
	for _, p := range providers {
		info, err := p.NewRESTStorage(enabled, getter)
		if err != nil {
			return nil, fmt.Errorf("storage of %s: %w", p.GroupName(), err)
		}
		out.Groups = append(out.Groups, &info)
	}
	// PriorityClasses come with kube's system classes, as in kube-apiserver.
	name, hook, err := schedulingrest.RESTStorageProvider{}.PostStartHook()
	if err != nil {
		return nil, fmt.Errorf("system PriorityClasses: %w", err)
	}
	out.Hooks[name] = hook
	return out, nil
}
