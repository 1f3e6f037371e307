package apiserver

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apiextensionsapiserver "k8s.io/apiextensions-apiserver/pkg/apiserver"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/rest"
	genericapiserver "k8s.io/apiserver/pkg/server"
	aggregatorapiserver "k8s.io/kube-aggregator/pkg/apiserver"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/apiserver/extensions"
	"github.com/mco-org/mco/pkg/apiserver/kubeapis"
	"github.com/mco-org/mco/pkg/apiserver/pki"
	nscontroller "github.com/mco-org/mco/pkg/controllers/namespace"
	"github.com/mco-org/mco/pkg/registry/clusterproxy"
	"github.com/mco-org/mco/pkg/registry/namespace"
	"github.com/mco-org/mco/pkg/registry/resource"
	"github.com/mco-org/mco/pkg/registry/scale"
	"github.com/mco-org/mco/pkg/registry/serviceaccounttoken"
)

// Server is a running-to-be mco-apiserver.
type Server struct {
	// Generic is mco's own server; when chained, the aggregator in front of
	// it is the one that serves.
	Generic    *genericapiserver.GenericAPIServer
	aggregator *aggregatorapiserver.APIAggregator
}

// Run serves until ctx ends.
func (s *Server) Run(ctx context.Context) error {
	if s.aggregator == nil {
		return s.Generic.PrepareRun().RunWithContext(ctx)
	}
	prepared, err := s.aggregator.PrepareRun()
	if err != nil {
		return fmt.Errorf("prepare aggregator: %w", err)
	}
	return prepared.Run(ctx)
}

// scaleAccessors names the resources with a scale subresource.
var scaleAccessors = map[schema.GroupResource]scale.Accessor{
	{Group: "apps", Resource: "deployments"}:  scale.Deployment,
	{Group: "apps", Resource: "statefulsets"}: scale.StatefulSet,
	{Group: "apps", Resource: "replicasets"}:  scale.ReplicaSet,
	{Resource: "replicationcontrollers"}:      scale.ReplicationController,
}

// New builds the server and installs every API group.
func (c CompletedConfig) New() (*Server, error) {
	var delegate genericapiserver.DelegationTarget = genericapiserver.NewEmptyDelegate()
	var ext *apiextensionsapiserver.CustomResourceDefinitions
	if ch := c.extra.Chain; ch != nil {
		var err error
		if ext, err = ch.NewExtensions(); err != nil {
			return nil, err
		}
		delegate = ext.GenericAPIServer
	}
	s, err := c.generic.New("mco-apiserver", delegate)
	if err != nil {
		return nil, fmt.Errorf("create generic apiserver: %w", err)
	}
	scheme, codecs := c.extra.Scheme, c.extra.Codecs
	paramCodec := runtime.NewParameterCodec(scheme)
	groups := map[string]*genericapiserver.APIGroupInfo{}
	var order []string
	for _, spec := range c.extra.Resources {
		storage, err := c.storageFor(spec)
		if err != nil {
			return nil, err
		}
		group := spec.Resource.Group
		info, ok := groups[group]
		if !ok {
			g := genericapiserver.NewDefaultAPIGroupInfo(group, scheme, paramCodec, codecs)
			info = &g
			groups[group] = info
			order = append(order, group)
		}
		if info.VersionedResourcesStorageMap[spec.Version] == nil {
			info.VersionedResourcesStorageMap[spec.Version] = map[string]rest.Storage{}
		}
		for path, st := range storage {
			info.VersionedResourcesStorageMap[spec.Version][path] = st
		}
	}
	for _, group := range order {
		info := groups[group]
		if group == "" {
			err = s.InstallLegacyAPIGroup(genericapiserver.DefaultLegacyAPIPrefix, info)
		} else {
			err = s.InstallAPIGroup(info)
		}
		if err != nil {
			return nil, fmt.Errorf("install API group %q: %w", group, err)
		}
	}
	if cg := groups[clusterv1alpha1.GroupName]; cg != nil && !c.extra.Aggregated {
		if clusters, ok := cg.VersionedResourcesStorageMap[clusterv1alpha1.SchemeGroupVersion.Version]["clusters"].(rest.Lister); ok {
			if err := c.installMetricsAPI(s, clusters); err != nil {
				return nil, err
			}
		}
	}
	if kg := c.extra.KubeGroups; kg != nil {
		if err := s.InstallAPIGroups(kg.Groups...); err != nil {
			return nil, fmt.Errorf("install Kubernetes' API groups: %w", err)
		}
		for name, hook := range kg.Hooks {
			if err := s.AddPostStartHook(name, hook); err != nil {
				return nil, fmt.Errorf("add post-start hook %s: %w", name, err)
			}
		}
	}
	if c.extra.RBAC {
		var served []kubeapis.Served
		if c.extra.KubeGroups != nil {
			served = c.extra.KubeGroups.Served()
		}
		policy := kubeapis.Policy(ComponentRoles(c.extra.Resources, served))
		if err := kubeapis.AddPostStartHooks(s, c.extra.KubeInformers, policy); err != nil {
			return nil, err
		}
	}
	if !c.extra.Aggregated {
		if err := c.addPostStartHooks(s); err != nil {
			return nil, err
		}
	}
	if c.extra.RBAC && ext != nil {
		if err := c.keepCustomResourceRole(s, ext); err != nil {
			return nil, err
		}
	}
	if ext != nil {
		if err := addMCSAPIHook(s); err != nil {
			return nil, err
		}
	}
	out := &Server{Generic: s}
	if ch := c.extra.Chain; ch != nil {
		if out.aggregator, err = ch.NewAggregator(s, ext); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// storageFor returns the REST endpoints of one resource keyed by path:
// "deployments", "deployments/status", "deployments/scale", ...
func (c CompletedConfig) storageFor(spec *resource.Spec) (map[string]rest.Storage, error) {
	main, status, err := resource.NewStorage(c.extra.Scheme, spec, c.generic.RESTOptionsGetter)
	if err != nil {
		return nil, err
	}
	plural := spec.Resource.Resource
	out := map[string]rest.Storage{plural: main}
	if status != nil {
		out[plural+"/status"] = status
	}
	if spec.Resource.Group == "" && plural == "namespaces" {
		ns := namespace.New(main)
		out[plural] = ns
		out[plural+"/finalize"] = namespace.NewFinalize(ns)
	}
	if spec.Resource == clusterv1alpha1.Resource("clusters") {
		out[plural+"/proxy"] = clusterproxy.New(main.Store, c.getSecret, c.extra.ClusterProxyTimeout)
	}
	if spec.Resource == corev1.Resource("serviceaccounts") {
		t := c.extra.ServiceAccountTokens
		get := func(ctx context.Context, name string) (*corev1.ServiceAccount, error) {
			obj, err := main.Store.Get(ctx, name, &metav1.GetOptions{})
			if err != nil {
				return nil, err
			}
			return obj.(*corev1.ServiceAccount), nil
		}
		out[plural+"/token"] = serviceaccounttoken.New(get, t.Generator, t.Audiences, t.MaxExpiration)
	}
	if acc, ok := scaleAccessors[spec.Resource]; ok {
		out[plural+"/scale"] = scale.New(main.Store, acc)
	}
	return out, nil
}

// getSecret reads a secret through the loopback client (the host's when
// aggregated), for the cluster proxy's member credentials.
func (c CompletedConfig) getSecret(ctx context.Context, namespace, name string) (*corev1.Secret, error) {
	return c.extra.KubeClient.CoreV1().Secrets(namespace).Get(ctx, name, metav1.GetOptions{})
}

// addPostStartHooks creates the system namespaces and starts the namespace
// finalizer once the server serves. Behind a host, namespaces are the
// host's and these are its own.
func (c CompletedConfig) addPostStartHooks(s *genericapiserver.GenericAPIServer) error {
	err := s.AddPostStartHook("mco-bootstrap-namespaces", func(ctx genericapiserver.PostStartHookContext) error {
		return nscontroller.EnsureSystemNamespaces(ctx, c.extra.KubeClient)
	})
	if err != nil {
		return fmt.Errorf("add bootstrap hook: %w", err)
	}
	err = s.AddPostStartHook("mco-namespace-finalizer", func(ctx genericapiserver.PostStartHookContext) error {
		ctrl, err := nscontroller.New(ctx.LoopbackClientConfig, c.extra.KubeInformers)
		if err != nil {
			return err
		}
		go ctrl.Run(ctx, 2)
		return nil
	})
	if err != nil {
		return fmt.Errorf("add namespace finalizer hook: %w", err)
	}
	return nil
}

// keepCustomResourceRole lets mco-controller-manager read and claim the
// custom resources of every CRD, as they come and go.
func (c CompletedConfig) keepCustomResourceRole(s *genericapiserver.GenericAPIServer, ext *apiextensionsapiserver.CustomResourceDefinitions) error {
	keeper, err := extensions.NewRoleKeeper(pki.ControllerManager.User, c.extra.KubeClient,
		ext.Informers.Apiextensions().V1().CustomResourceDefinitions().Informer())
	if err != nil {
		return err
	}
	err = s.AddPostStartHook("mco-custom-resource-roles", func(ctx genericapiserver.PostStartHookContext) error {
		go keeper.Run(ctx)
		return nil
	})
	if err != nil {
		return fmt.Errorf("add custom resource roles hook: %w", err)
	}
	return nil
}

// addMCSAPIHook installs the Kubernetes MCS API's CRDs (ServiceExport and
// ServiceImport) once the server serves, when mco serves CRDs itself.
func addMCSAPIHook(s *genericapiserver.GenericAPIServer) error {
	err := s.AddPostStartHook("mco-mcs-api-crds", func(ctx genericapiserver.PostStartHookContext) error {
		client, err := apiextensionsclient.NewForConfig(ctx.LoopbackClientConfig)
		if err != nil {
			return fmt.Errorf("apiextensions client: %w", err)
		}
		return extensions.EnsureMCSAPI(ctx, client)
	})
	if err != nil {
		return fmt.Errorf("add MCS API hook: %w", err)
	}
	return nil
}
