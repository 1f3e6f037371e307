package interpreter

import (
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	configlisters "github.com/mco-org/mco/pkg/generated/listers/config/v1alpha1"
)

// Follower keeps an interpreter's customizations those stored on mco, and
// tells listeners which kinds a change touches, so that they interpret
// their objects of those kinds again.
type Follower struct {
	interp       *Interpreter
	lister       configlisters.ResourceInterpreterCustomizationLister
	registration cache.ResourceEventHandlerRegistration
	initial      sync.Once // loads the customizations of the initial list
	reloads      int       // how many times the set was built, for tests

	// webhooks, when followed, are the webhook configurations'.
	webhooks        *webhookFollowing
	initialWebhooks sync.Once

	mu        sync.Mutex
	listeners []func(schema.GroupVersionKind)
	// compiled are the scripts of the customizations now, reused by the
	// next reload: a change of one customization, and each customization
	// listed at start, compiles only what is new.
	compiled compiledScripts
}

// Follow makes interp follow the customizations of informer.
func Follow(interp *Interpreter, informer cache.SharedIndexInformer) (*Follower, error) {
	f := &Follower{interp: interp, lister: configlisters.NewResourceInterpreterCustomizationLister(informer.GetIndexer())}
	var err error
	f.registration, err = informer.AddEventHandler(cache.ResourceEventHandlerDetailedFuncs{
		// The adds of the initial list are loaded together, once they
		// are all in (HasSynced), rather than one reload each.
		AddFunc: func(_ any, initial bool) {
			if !initial {
				f.reload()
			}
		},
		UpdateFunc: func(any, any) { f.reload() },
		DeleteFunc: func(any) { f.reload() },
	})
	if err != nil {
		return nil, fmt.Errorf("follow ResourceInterpreterCustomizations: %w", err)
	}
	return f, nil
}

// HasSynced tells whether the customizations (and webhook configurations,
// when followed) stored have all been seen and loaded; the first true
// answer loads those of the initial list.
// Until then, the interpreter answers with mco's own rules only.
func (f *Follower) HasSynced() bool {
	if !f.registration.HasSynced() {
		return false
	}
	if w := f.webhooks; w != nil {
		if !w.registration.HasSynced() {
			return false
		}
		f.initialWebhooks.Do(f.reloadWebhooks)
	}
	f.initial.Do(f.reload)
	return true
}

// OnChange registers fn, called with each kind whose scripts change.
func (f *Follower) OnChange(fn func(schema.GroupVersionKind)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.listeners = append(f.listeners, fn)
}

func (f *Follower) reload() {
	list, err := f.lister.List(labels.Everything())
	if err != nil {
		klog.ErrorS(err, "List ResourceInterpreterCustomizations")
		return
	}
	f.mu.Lock()
	next, compiled, errs := newSet(list, f.compiled)
	f.compiled = compiled
	f.reloads++
	prev := f.interp.Customizations()
	f.interp.SetCustomizations(next)
	listeners := append([]func(schema.GroupVersionKind){}, f.listeners...)
	f.mu.Unlock()
	for _, err := range errs {
		klog.ErrorS(err, "A ResourceInterpreterCustomization's script is left out")
	}
	for _, gvk := range changedKinds(prev, next) {
		klog.V(2).InfoS("Resource interpreter customizations changed", "kind", kindName(gvk))
		for _, fn := range listeners {
			fn(gvk)
		}
	}
}

// changedKinds lists the kinds whose scripts differ between two sets.
func changedKinds(prev, next *Set) []schema.GroupVersionKind {
	seen := map[schema.GroupVersionKind]bool{}
	var out []schema.GroupVersionKind
	for _, gvk := range append(prev.Kinds(), next.Kinds()...) {
		if seen[gvk] {
			continue
		}
		seen[gvk] = true
		if prev.fingerprint(gvk) != next.fingerprint(gvk) {
			out = append(out, gvk)
		}
	}
	return out
}
