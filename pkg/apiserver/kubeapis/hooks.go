package kubeapis

import (
	"fmt"

	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/kubernetes/pkg/controller/clusterroleaggregation"
	rbacrest "k8s.io/kubernetes/pkg/registry/rbac/rest"
)

// AddPostStartHooks reconciles policy once the server serves, and keeps the
// aggregated ClusterRoles (admin, edit, view, and any a user labels so)
// filled from the roles their selectors match — kube-controller-manager's
// job in a Kubernetes cluster, done here so that they are right whatever
// else runs. inf must be the factory the authorizer reads.
func AddPostStartHooks(s *genericapiserver.GenericAPIServer, inf informers.SharedInformerFactory, policy *rbacrest.PolicyData) error {
	if err := s.AddPostStartHook("rbac/bootstrap-roles", policy.EnsureRBACPolicy()); err != nil {
		return fmt.Errorf("add bootstrap roles hook: %w", err)
	}
	err := s.AddPostStartHook("mco-clusterrole-aggregation", func(ctx genericapiserver.PostStartHookContext) error {
		client, err := kubernetes.NewForConfig(ctx.LoopbackClientConfig)
		if err != nil {
			return err
		}
		aggregation := clusterroleaggregation.NewClusterRoleAggregation(inf.Rbac().V1().ClusterRoles(), client.RbacV1())
		inf.Start(ctx.Done())
		go aggregation.Run(ctx, 1)
		return nil
	})
	if err != nil {
		return fmt.Errorf("add clusterrole aggregation hook: %w", err)
	}
	return nil
}
