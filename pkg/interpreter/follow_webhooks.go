package interpreter

import (
	"fmt"
	"net/http"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	configlisters "github.com/mco-org/mco/pkg/generated/listers/config/v1alpha1"
	"github.com/mco-org/mco/pkg/interpreter/webhook"
)

// webhookFollowing is what a Follower keeps of the webhook configurations
// it follows.
type webhookFollowing struct {
	lister       configlisters.ResourceInterpreterWebhookConfigurationLister
	registration cache.ResourceEventHandlerRegistration
	// kinds lists the kinds whose objects are interpreted again when the
	// webhooks change (those a webhook's rules match).
	kinds func() []schema.GroupVersionKind
	// clients are the webhooks' HTTP clients by CA bundle, reused across
	// reloads so that connections are kept.
	clients map[string]*http.Client
}

// FollowWebhooks makes the interpreter also call the webhooks of the
// ResourceInterpreterWebhookConfigurations of informer, after the
// customizations' scripts and before mco's own rules. When they change,
// listeners hear of each kind in kinds() that a webhook's rules match,
// before or after. Call it before HasSynced.
func (f *Follower) FollowWebhooks(informer cache.SharedIndexInformer, kinds func() []schema.GroupVersionKind) error {
	w := &webhookFollowing{
		lister:  configlisters.NewResourceInterpreterWebhookConfigurationLister(informer.GetIndexer()),
		kinds:   kinds,
		clients: map[string]*http.Client{},
	}
	f.webhooks = w
	var err error
	w.registration, err = informer.AddEventHandler(cache.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(_ any, initial bool) {
			if !initial {
				f.reloadWebhooks()
			}
		},
		UpdateFunc: func(any, any) { f.reloadWebhooks() },
		DeleteFunc: func(any) { f.reloadWebhooks() },
	})
	if err != nil {
		return fmt.Errorf("follow ResourceInterpreterWebhookConfigurations: %w", err)
	}
	return nil
}

func (f *Follower) reloadWebhooks() {
	w := f.webhooks
	list, err := w.lister.List(labels.Everything())
	if err != nil {
		klog.ErrorS(err, "List ResourceInterpreterWebhookConfigurations")
		return
	}
	f.mu.Lock()
	next, errs := webhook.NewSet(list, w.clients)
	prev := f.interp.Webhooks()
	f.interp.SetWebhooks(next)
	listeners := append([]func(schema.GroupVersionKind){}, f.listeners...)
	f.mu.Unlock()
	for _, err := range errs {
		klog.ErrorS(err, "An interpreter webhook is left out")
	}
	if prev.Fingerprint() == next.Fingerprint() || w.kinds == nil {
		return
	}
	for _, gvk := range w.kinds() {
		if !prev.Kinds(gvk) && !next.Kinds(gvk) {
			continue
		}
		klog.V(2).InfoS("Interpreter webhooks changed", "kind", kindName(gvk))
		for _, fn := range listeners {
			fn(gvk)
		}
	}
}
