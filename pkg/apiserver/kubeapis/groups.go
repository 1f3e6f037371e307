package kubeapis

import (
	"fmt"

	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/authentication/authenticator"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/registry/generic"
	genericapiserver "k8s.io/apiserver/pkg/server"
	genericoptions "k8s.io/apiserver/pkg/server/options"
	serverstorage "k8s.io/apiserver/pkg/server/storage"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/authentication/install" // internal types of the groups served here
	_ "k8s.io/kubernetes/pkg/apis/authorization/install"
	_ "k8s.io/kubernetes/pkg/apis/rbac/install"
	authenticationrest "k8s.io/kubernetes/pkg/registry/authentication/rest"
	authorizationrest "k8s.io/kubernetes/pkg/registry/authorization/rest"
	rbacrest "k8s.io/kubernetes/pkg/registry/rbac/rest"
)

func init() {
	// What every group of the scheme needs to be served: the unversioned
	// types (Status, ...) and the server-side tables.
	metav1.AddToGroupVersion(legacyscheme.Scheme, schema.GroupVersion{Version: "v1"})
	if err := metav1.AddMetaToScheme(legacyscheme.Scheme); err != nil {
		panic(err)
	}
}

// Versions are the group versions served here.
var Versions = []schema.GroupVersion{rbacv1.SchemeGroupVersion, authorizationv1.SchemeGroupVersion, authenticationv1.SchemeGroupVersion}

// AddToScheme registers the served versions' types, for schemes that name
// OpenAPI definitions.
func AddToScheme(s *runtime.Scheme) error {
	for _, add := range []func(*runtime.Scheme) error{rbacv1.AddToScheme, authorizationv1.AddToScheme, authenticationv1.AddToScheme} {
		if err := add(s); err != nil {
			return err
		}
	}
	return nil
}

// Groups returns the API groups to install. RBAC objects are stored in
// etcd as kube-apiserver stores them (protobuf under /registry/<resource>).
// authz decides escalation checks on Roles and bindings; the reviews ask
// authz and resolver; TokenReview asks authn, for the API's audiences.
func Groups(etcd *genericoptions.EtcdOptions, authz authorizer.Authorizer, resolver authorizer.RuleResolver, authn authenticator.Request,
	audiences authenticator.Audiences) ([]*genericapiserver.APIGroupInfo, error) {
	enabled := serverstorage.NewResourceConfig()
	enabled.EnableVersions(Versions...)
	factory := serverstorage.NewDefaultStorageFactory(etcd.StorageConfig, runtime.ContentTypeProtobuf, legacyscheme.Codecs,
		serverstorage.NewDefaultResourceEncodingConfig(legacyscheme.Scheme), enabled, nil)
	var getter generic.RESTOptionsGetter = &genericoptions.StorageFactoryRestOptionsFactory{Options: *etcd, StorageFactory: factory}

	providers := []struct {
		name string
		new  func(serverstorage.APIResourceConfigSource, generic.RESTOptionsGetter) (genericapiserver.APIGroupInfo, error)
	}{
		{"rbac.authorization.k8s.io", rbacrest.RESTStorageProvider{Authorizer: authz}.NewRESTStorage},
		{"authorization.k8s.io", authorizationrest.RESTStorageProvider{Authorizer: authz, RuleResolver: resolver}.NewRESTStorage},
		{"authentication.k8s.io", authenticationrest.RESTStorageProvider{Authenticator: authn, APIAudiences: audiences}.NewRESTStorage},
	}
	var out []*genericapiserver.APIGroupInfo
	for _, p := range providers {
		info, err := p.new(enabled, getter)
		if err != nil {
			return nil, fmt.Errorf("storage of %s: %w", p.name, err)
		}
		out = append(out, &info)
	}
	return out, nil
}
