package dashboard

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/cache"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	mcoinformers "github.com/mco-org/mco/pkg/generated/informers/externalversions"
	"github.com/mco-org/mco/pkg/kubeconfig"
	"github.com/mco-org/mco/pkg/rollout"
	"github.com/mco-org/mco/pkg/rolloutops"
)

// broadcast hands out a channel that is closed at the next change.
type broadcast struct {
	mu sync.Mutex
	ch chan struct{}
}

func newBroadcast() *broadcast { return &broadcast{ch: make(chan struct{})} }

func (b *broadcast) Changed() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.ch
}

func (b *broadcast) notify() {
	b.mu.Lock()
	defer b.mu.Unlock()
	close(b.ch)
	b.ch = make(chan struct{})
}

// LiveSource watches mco with the user's own credentials: each kind the
// user may list cluster-wide is watched cluster-wide; a namespaced kind
// the user may list only in their namespace is watched there; a kind the
// user may not list at all is left out, and the pages say so.
type LiveSource struct {
	*broadcast
	kube      kubernetes.Interface
	mco       mcoclient.Interface
	dynamic   dynamic.Interface
	mapper    meta.RESTMapper
	mu        sync.Mutex
	mayCache  map[string]mayAnswer
	namespace string
	hidden    []string
	listers   []func(*Snapshot)
	synced    []cache.InformerSynced
	factories []mcoinformers.SharedInformerFactory
}

// kind is one list the pages read.
type kind struct {
	group, resource string
	namespaced      bool
}

// NewLiveSource decides what the user may watch and prepares the
// informers; Start runs them. namespace is the user's own (from -n or
// the kubeconfig), used where a cluster-wide list is refused.
func NewLiveSource(ctx context.Context, cfg *rest.Config, namespace string) (*LiveSource, error) {
	kube, err := kubernetes.NewForConfig(kubeconfig.Protobuf(cfg))
	if err != nil {
		return nil, fmt.Errorf("client of mco: %w", err)
	}
	mco, err := mcoclient.NewForConfig(kubeconfig.Protobuf(cfg))
	if err != nil {
		return nil, fmt.Errorf("client of mco: %w", err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("client of mco: %w", err)
	}
	s := &LiveSource{broadcast: newBroadcast(), kube: kube, mco: mco, dynamic: dyn, mayCache: map[string]mayAnswer{},
		mapper: restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(kube.Discovery()))}
	all := mcoinformers.NewSharedInformerFactory(mco, 0)
	own := mcoinformers.NewSharedInformerFactoryWithOptions(mco, 0, mcoinformers.WithNamespace(namespace))
	s.factories = []mcoinformers.SharedInformerFactory{all, own}
	scope := func(k kind) (mcoinformers.SharedInformerFactory, error) {
		ok, err := mayList(ctx, kube, k, "")
		if err != nil || ok {
			return all, err
		}
		if k.namespaced && namespace != "" {
			if ok, err = mayList(ctx, kube, k, namespace); err != nil || ok {
				s.namespace = namespace
				return own, err
			}
		}
		s.hidden = append(s.hidden, k.resource)
		return nil, nil
	}
	for _, x := range []struct {
		k   kind
		add func(f mcoinformers.SharedInformerFactory) error
	}{
		{kind{"cluster.karmada.io", "clusters", false}, func(f mcoinformers.SharedInformerFactory) error {
			inf := f.Cluster().V1alpha1().Clusters()
			s.listers = append(s.listers, func(snap *Snapshot) { snap.Clusters, _ = inf.Lister().List(labels.Everything()) })
			return s.watch(inf.Informer())
		}},
		{kind{"work.karmada.io", "resourcebindings", true}, func(f mcoinformers.SharedInformerFactory) error {
			inf := f.Work().V1alpha2().ResourceBindings()
			s.listers = append(s.listers, func(snap *Snapshot) {
				rbs, _ := inf.Lister().List(labels.Everything())
				for _, rb := range rbs {
					snap.Bindings = append(snap.Bindings, &Binding{Namespace: rb.Namespace, Name: rb.Name, Labels: rb.Labels,
						Annotations: rb.Annotations, Spec: &rb.Spec, Status: &rb.Status, Object: rb})
				}
			})
			return s.watch(inf.Informer())
		}},
		{kind{"work.karmada.io", "clusterresourcebindings", false}, func(f mcoinformers.SharedInformerFactory) error {
			inf := f.Work().V1alpha2().ClusterResourceBindings()
			s.listers = append(s.listers, func(snap *Snapshot) {
				crbs, _ := inf.Lister().List(labels.Everything())
				for _, crb := range crbs {
					snap.Bindings = append(snap.Bindings, clusterBinding(crb))
				}
			})
			return s.watch(inf.Informer())
		}},
		{kind{"policy.karmada.io", "propagationpolicies", true}, func(f mcoinformers.SharedInformerFactory) error {
			inf := f.Policy().V1alpha1().PropagationPolicies()
			s.listers = append(s.listers, func(snap *Snapshot) { snap.PropagationPolicies, _ = inf.Lister().List(labels.Everything()) })
			return s.watch(inf.Informer())
		}},
		{kind{"policy.karmada.io", "clusterpropagationpolicies", false}, func(f mcoinformers.SharedInformerFactory) error {
			inf := f.Policy().V1alpha1().ClusterPropagationPolicies()
			s.listers = append(s.listers, func(snap *Snapshot) { snap.ClusterPropagationPolicies, _ = inf.Lister().List(labels.Everything()) })
			return s.watch(inf.Informer())
		}},
		{kind{"policy.karmada.io", "overridepolicies", true}, func(f mcoinformers.SharedInformerFactory) error {
			inf := f.Policy().V1alpha1().OverridePolicies()
			s.listers = append(s.listers, func(snap *Snapshot) { snap.OverridePolicies, _ = inf.Lister().List(labels.Everything()) })
			return s.watch(inf.Informer())
		}},
		{kind{"policy.karmada.io", "clusteroverridepolicies", false}, func(f mcoinformers.SharedInformerFactory) error {
			inf := f.Policy().V1alpha1().ClusterOverridePolicies()
			s.listers = append(s.listers, func(snap *Snapshot) { snap.ClusterOverridePolicies, _ = inf.Lister().List(labels.Everything()) })
			return s.watch(inf.Informer())
		}},
		{kind{"rollout.mco-org.github.io", "rollouts", true}, func(f mcoinformers.SharedInformerFactory) error {
			inf := f.Rollout().V1alpha1().Rollouts()
			s.listers = append(s.listers, func(snap *Snapshot) { snap.Rollouts, _ = inf.Lister().List(labels.Everything()) })
			return s.watch(inf.Informer())
		}},
	} {
		f, err := scope(x.k)
		if err != nil {
			return nil, fmt.Errorf("may %s be listed: %w", x.k.resource, err)
		}
		if f == nil {
			continue
		}
		if err := x.add(f); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func clusterBinding(crb *workv1alpha2.ClusterResourceBinding) *Binding {
	return &Binding{Name: crb.Name, Labels: crb.Labels, Annotations: crb.Annotations, Spec: &crb.Spec, Status: &crb.Status, Object: crb}
}

// watch notifies the pages of every change the informer sees.
func (s *LiveSource) watch(inf cache.SharedIndexInformer) error {
	s.synced = append(s.synced, inf.HasSynced)
	_, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { s.notify() },
		UpdateFunc: func(any, any) { s.notify() },
		DeleteFunc: func(any) { s.notify() },
	})
	return err
}

// Start runs the informers and waits (up to timeout) for their first
// lists.
func (s *LiveSource) Start(ctx context.Context, timeout time.Duration) error {
	for _, f := range s.factories {
		f.Start(ctx.Done())
	}
	wait, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if !cache.WaitForCacheSync(wait.Done(), s.synced...) {
		return fmt.Errorf("mco's lists did not arrive within %s", timeout)
	}
	return nil
}

// Snapshot reads the informers' caches.
func (s *LiveSource) Snapshot() *Snapshot {
	snap := &Snapshot{Hidden: s.hidden, Namespace: s.namespace}
	for _, l := range s.listers {
		l(snap)
	}
	return snap
}

// mayList asks mco whether the user may list (and watch) a kind, in a
// namespace or, with "", everywhere.
func mayList(ctx context.Context, kube kubernetes.Interface, k kind, namespace string) (bool, error) {
	for _, verb := range []string{"list", "watch"} {
		review := &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
			ResourceAttributes: &authorizationv1.ResourceAttributes{Verb: verb, Group: k.group, Resource: k.resource, Namespace: namespace}}}
		out, err := kube.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, review, metav1.CreateOptions{})
		if err != nil {
			return false, err
		}
		if !out.Status.Allowed {
			return false, nil
		}
	}
	return true, nil
}

// Events lists an object's Events, newest first (at most 20); an error
// when the user may not read them.
func (s *LiveSource) Events(ctx context.Context, namespace, kind, name string) ([]corev1.Event, error) {
	sel := fields.Set{"involvedObject.kind": kind, "involvedObject.name": name}
	if namespace == "" {
		namespace = metav1.NamespaceDefault
	}
	list, err := s.kube.CoreV1().Events(namespace).List(ctx, metav1.ListOptions{FieldSelector: sel.String()})
	if err != nil {
		return nil, err
	}
	out := list.Items
	sort.Slice(out, func(i, j int) bool { return eventTime(&out[i]).After(eventTime(&out[j])) })
	if len(out) > 20 {
		out = out[:20]
	}
	return out, nil
}

// eventTime is when an Event last happened.
func eventTime(e *corev1.Event) time.Time {
	switch {
	case !e.LastTimestamp.IsZero():
		return e.LastTimestamp.Time
	case !e.EventTime.IsZero():
		return e.EventTime.Time
	}
	return e.CreationTimestamp.Time
}

// mayAnswer is a cached answer of whether the user may steer rollouts.
type mayAnswer struct {
	may bool
	at  time.Time
}

// MayControl tells whether the user may update Rollouts in the namespace;
// answers are kept 30 s.
func (s *LiveSource) MayControl(ctx context.Context, namespace string) bool {
	s.mu.Lock()
	a, ok := s.mayCache[namespace]
	s.mu.Unlock()
	if ok && time.Since(a.at) < 30*time.Second {
		return a.may
	}
	review := &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
		ResourceAttributes: &authorizationv1.ResourceAttributes{Verb: "update", Group: rolloutv1alpha1.GroupName,
			Resource: rolloutv1alpha1.ResourcePluralRollout, Namespace: namespace}}}
	out, err := s.kube.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, review, metav1.CreateOptions{})
	may := err == nil && out.Status.Allowed
	s.mu.Lock()
	s.mayCache[namespace] = mayAnswer{may: may, at: time.Now()}
	s.mu.Unlock()
	return may
}

// Control pauses or resumes a Rollout with the user's credentials, as
// kubectl mco rollout pause|resume does.
func (s *LiveSource) Control(ctx context.Context, namespace, name, action string) (string, error) {
	edit := rollout.Pause
	if action == "resume" {
		edit = func(ro *rolloutv1alpha1.Rollout, waves []rollout.PolicyWave) (string, error) {
			return rollout.Resume(ro, waves, "", time.Now())
		}
	}
	return rolloutops.Change(ctx, s.mco, namespace, name, edit)
}

// MatchTemplates lists, with the user's credentials, the templates of each
// kind whose labels match the selector (mco-apiserver filters them).
func (s *LiveSource) MatchTemplates(ctx context.Context, selector labels.Selector, namespace string,
	kinds []schema.GroupVersionKind) (map[string]bool, error) {
	out := map[string]bool{}
	var errs []error
	for _, gvk := range kinds {
		mapping, err := s.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", gvk.Kind, err))
			continue
		}
		var list *unstructured.UnstructuredList
		opts := metav1.ListOptions{LabelSelector: selector.String()}
		if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
			list, err = s.dynamic.Resource(mapping.Resource).Namespace(namespace).List(ctx, opts)
		} else {
			list, err = s.dynamic.Resource(mapping.Resource).List(ctx, opts)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("list %s: %w", mapping.Resource.Resource, err))
			continue
		}
		for _, o := range list.Items {
			out[TemplateKey(gvk.GroupVersion().String(), gvk.Kind, o.GetNamespace(), o.GetName())] = true
		}
	}
	return out, errors.Join(errs...)
}
