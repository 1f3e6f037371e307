package dashboard

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// Binding is a ResourceBinding or ClusterResourceBinding, as the pages
// read it: one workload (a resource template) and where it is placed.
type Binding struct {
	// Namespace is empty for a ClusterResourceBinding.
	Namespace, Name string
	Labels          map[string]string
	Annotations     map[string]string
	Spec            *workv1alpha2.ResourceBindingSpec
	Status          *workv1alpha2.ResourceBindingStatus
	// Object is the binding itself, for the scheduler's explanation.
	Object runtime.Object
}

// Snapshot is what the user may read of mco at one moment. Lists the user
// may not read are nil, and Hidden says which.
type Snapshot struct {
	Clusters                   []*clusterv1alpha1.Cluster
	Bindings                   []*Binding
	PropagationPolicies        []*policyv1alpha1.PropagationPolicy
	ClusterPropagationPolicies []*policyv1alpha1.ClusterPropagationPolicy
	OverridePolicies           []*policyv1alpha1.OverridePolicy
	ClusterOverridePolicies    []*policyv1alpha1.ClusterOverridePolicy
	Rollouts                   []*rolloutv1alpha1.Rollout
	// Hidden names the kinds the user's credentials may not list, e.g.
	// "clusters".
	Hidden []string
	// Namespace, when set, is the only namespace the user may list.
	Namespace string
}

// Source gives the pages their data and says when it changed.
type Source interface {
	Snapshot() *Snapshot
	// Changed returns a channel closed at the next change.
	Changed() <-chan struct{}
}

// EventSource lists the recent Events of an object, when the source can.
type EventSource interface {
	Events(ctx context.Context, namespace, kind, name string) ([]corev1.Event, error)
}

// TemplateMatcher finds the templates a label selector picks, when the
// source can: bindings do not carry their templates' labels.
type TemplateMatcher interface {
	// MatchTemplates returns the keys (TemplateKey) of the templates of the
	// given kinds, in namespace ("" for all), whose labels match selector.
	MatchTemplates(ctx context.Context, selector labels.Selector, namespace string, kinds []schema.GroupVersionKind) (map[string]bool, error)
}

// TemplateKey names a template: "apiVersion/kind/namespace/name" style.
func TemplateKey(apiVersion, kind, namespace, name string) string {
	return apiVersion + "|" + kind + "|" + namespace + "|" + name
}
