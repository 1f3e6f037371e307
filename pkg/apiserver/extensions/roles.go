package extensions

import (
	"context"
	"fmt"
	"sort"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionslisters "k8s.io/apiextensions-apiserver/pkg/client/listers/apiextensions/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// CustomResourceRole is the ClusterRole that lets mco-controller-manager
// (bound to user) treat every custom resource as a template: read them and
// write their claim labels and aggregated status. mco-apiserver keeps its
// rules in step with the CustomResourceDefinitions.
func CustomResourceRole(user string) string { return user + ":custom-resources" }

// customResourceRules are the rules over the custom resources of crds,
// ordered by group.
func customResourceRules(crds []*apiextensionsv1.CustomResourceDefinition) []rbacv1.PolicyRule {
	byGroup := map[string][]string{}
	for _, c := range crds {
		p := c.Spec.Names.Plural
		byGroup[c.Spec.Group] = append(byGroup[c.Spec.Group], p, p+"/status", p+"/scale")
	}
	groups := make([]string, 0, len(byGroup))
	for g := range byGroup {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	rules := make([]rbacv1.PolicyRule, 0, len(groups))
	for _, g := range groups {
		res := byGroup[g]
		sort.Strings(res)
		rules = append(rules, rbacv1.PolicyRule{APIGroups: []string{g}, Resources: res,
			Verbs: []string{"get", "list", "watch", "update", "patch"}})
	}
	return rules
}

// RoleKeeper keeps CustomResourceRole and its binding.
type RoleKeeper struct {
	user   string
	client kubernetes.Interface
	crds   apiextensionslisters.CustomResourceDefinitionLister
	synced cache.InformerSynced
	queue  workqueue.TypedRateLimitingInterface[string]
}

// NewRoleKeeper builds the keeper of user's custom resource role.
func NewRoleKeeper(user string, client kubernetes.Interface, crds cache.SharedIndexInformer) (*RoleKeeper, error) {
	k := &RoleKeeper{user: user, client: client, crds: apiextensionslisters.NewCustomResourceDefinitionLister(crds.GetIndexer()),
		synced: crds.HasSynced,
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "custom-resource-roles"})}
	enqueue := func(any) { k.queue.Add("role") }
	if _, err := crds.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: enqueue, UpdateFunc: func(_, o any) { enqueue(o) }, DeleteFunc: enqueue,
	}); err != nil {
		return nil, fmt.Errorf("custom resource roles: %w", err)
	}
	return k, nil
}

// Run keeps the role until ctx ends.
func (k *RoleKeeper) Run(ctx context.Context) {
	defer k.queue.ShutDown()
	if !cache.WaitForCacheSync(ctx.Done(), k.synced) {
		return
	}
	k.queue.Add("role")
	go wait.UntilWithContext(ctx, func(ctx context.Context) {
		for k.next(ctx) {
		}
	}, time.Second)
	<-ctx.Done()
}

func (k *RoleKeeper) next(ctx context.Context) bool {
	key, quit := k.queue.Get()
	if quit {
		return false
	}
	defer k.queue.Done(key)
	if err := k.sync(ctx); err != nil {
		klog.FromContext(ctx).Error(err, "Custom resource role not kept; will retry", "role", CustomResourceRole(k.user))
		k.queue.AddRateLimited(key)
		return true
	}
	k.queue.Forget(key)
	return true
}

func (k *RoleKeeper) sync(ctx context.Context) error {
	crds, err := k.crds.List(labels.Everything())
	if err != nil {
		return err
	}
	name := CustomResourceRole(k.user)
	meta := metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/bootstrapping": "rbac-defaults"}}
	role := &rbacv1.ClusterRole{ObjectMeta: meta, Rules: customResourceRules(crds)}
	got, err := k.client.RbacV1().ClusterRoles().Get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		if _, err := k.client.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("create ClusterRole %s: %w", name, err)
		}
	case err != nil:
		return fmt.Errorf("get ClusterRole %s: %w", name, err)
	case !apiequality.Semantic.DeepEqual(got.Rules, role.Rules):
		got.Rules = role.Rules
		if _, err := k.client.RbacV1().ClusterRoles().Update(ctx, got, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("update ClusterRole %s: %w", name, err)
		}
	}
	binding := &rbacv1.ClusterRoleBinding{ObjectMeta: meta,
		RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: name},
		Subjects: []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: k.user}}}
	_, err = k.client.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create ClusterRoleBinding %s: %w", name, err)
	}
	return nil
}
