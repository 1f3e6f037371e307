package rollout

import (
	"context"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/kubectlmco/clients"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/rollout"
)

// target is a template named on the command line, with the clients to
// reach it and its Rollout.
type target struct {
	mapping   *meta.RESTMapping
	namespace string // the template's; empty for a cluster-scoped one
	name      string
	kube      kubernetes.Interface
	mco       mcoclient.Interface
	dynamic   dynamic.Interface
}

// resolve turns KIND/NAME into a target, by mco's discovery.
func resolve(_ context.Context, f *clients.Factory, cfg *rest.Config, arg string) (*target, error) {
	kind, name, ok := strings.Cut(arg, "/")
	if !ok || kind == "" || name == "" {
		return nil, fmt.Errorf("name the template as KIND/NAME, such as deployment/web, not %q", arg)
	}
	mapper, err := f.Flags.ToRESTMapper()
	if err != nil {
		return nil, fmt.Errorf("mco's discovery: %w", err)
	}
	gvk, err := mapper.KindFor(schema.ParseGroupResource(kind).WithVersion(""))
	if err != nil {
		return nil, fmt.Errorf("mco serves no kind %q: %w", kind, err)
	}
	mapping, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return nil, fmt.Errorf("kind %s: %w", gvk.Kind, err)
	}
	t := &target{mapping: mapping, name: name}
	if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
		if t.namespace, err = f.Namespace(); err != nil {
			return nil, err
		}
	}
	if t.kube, t.mco, err = clients.MCO(cfg); err != nil {
		return nil, err
	}
	if t.dynamic, err = dynamic.NewForConfig(cfg); err != nil {
		return nil, fmt.Errorf("client of mco: %w", err)
	}
	return t, nil
}

// String names the template as messages do.
func (t *target) String() string {
	if t.namespace == "" {
		return fmt.Sprintf("%s %s", t.mapping.GroupVersionKind.Kind, t.name)
	}
	return fmt.Sprintf("%s %s/%s", t.mapping.GroupVersionKind.Kind, t.namespace, t.name)
}

// recordNamespace and recordName locate the template's Rollout.
func (t *target) recordNamespace() string { return rollout.RecordNamespace(t.namespace) }
func (t *target) recordName() string      { return names.Binding(t.mapping.GroupVersionKind.Kind, t.name) }

// rollout reads the template's Rollout.
func (t *target) rollout(ctx context.Context) (*rolloutv1alpha1.Rollout, error) {
	ro, err := t.mco.RolloutV1alpha1().Rollouts(t.recordNamespace()).Get(ctx, t.recordName(), metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, fmt.Errorf("%s has no staged rollout: no RolloutPolicy or ClusterRolloutPolicy governs it (or it is not propagated yet)", t)
	}
	if err != nil {
		return nil, fmt.Errorf("get the rollout of %s: %w", t, err)
	}
	return ro, nil
}

// templates is the resource client of the template's kind.
func (t *target) templates() dynamic.ResourceInterface {
	r := t.dynamic.Resource(t.mapping.Resource)
	if t.namespace != "" {
		return r.Namespace(t.namespace)
	}
	return r
}
