/*
Copyright The mco Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package federatedhpa

import (
	"context"
	"fmt"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	autoscalinginformers "k8s.io/client-go/informers/autoscaling/v2"
	autoscalingclient "k8s.io/client-go/kubernetes/typed/autoscaling/v2"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	autoscalinglisters "k8s.io/client-go/listers/autoscaling/v2"
	"k8s.io/client-go/tools/cache"

	autoscalingv1alpha1 "github.com/mco-org/mco/pkg/apis/autoscaling/v1alpha1"
	"github.com/mco-org/mco/pkg/apis/autoscaling/validation"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
)

// Kubernetes' HorizontalPodAutoscaler controller runs the FederatedHPAs
// here: it sees each one as the HorizontalPodAutoscaler of the same
// metadata, spec and status (the two kinds hold the same fields), and what
// it writes back — the status, and Events — goes to the FederatedHPA.

// asHPA is the HorizontalPodAutoscaler a FederatedHPA stands for.
func asHPA(f *autoscalingv1alpha1.FederatedHPA) *autoscalingv2.HorizontalPodAutoscaler {
	f = f.DeepCopy()
	return &autoscalingv2.HorizontalPodAutoscaler{
		TypeMeta:   metav1.TypeMeta{APIVersion: autoscalingv2.SchemeGroupVersion.String(), Kind: "HorizontalPodAutoscaler"},
		ObjectMeta: f.ObjectMeta,
		Spec:       validation.HPASpec(f.Spec),
		Status:     f.Status,
	}
}

// asFederatedHPA is the FederatedHPA an autoscaler's view stands for.
func asFederatedHPA(h *autoscalingv2.HorizontalPodAutoscaler) *autoscalingv1alpha1.FederatedHPA {
	s := h.Spec.DeepCopy()
	return &autoscalingv1alpha1.FederatedHPA{
		ObjectMeta: *h.ObjectMeta.DeepCopy(),
		Spec: autoscalingv1alpha1.FederatedHPASpec{ScaleTargetRef: s.ScaleTargetRef, MinReplicas: s.MinReplicas,
			MaxReplicas: s.MaxReplicas, Metrics: s.Metrics, Behavior: s.Behavior},
		Status: *h.Status.DeepCopy(),
	}
}

// hpaInformer caches the FederatedHPAs as HorizontalPodAutoscalers; its
// lister shows each at its template's share (see Share).
type hpaInformer struct {
	informer cache.SharedIndexInformer
	share    shareFunc
}

var _ autoscalinginformers.HorizontalPodAutoscalerInformer = hpaInformer{}

func newHPAInformer(mco mcoclient.Interface, resync time.Duration, share shareFunc) hpaInformer {
	client := mco.AutoscalingV1alpha1().FederatedHPAs(metav1.NamespaceAll)
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			list, err := client.List(ctx, opts)
			if err != nil {
				return nil, err
			}
			out := &autoscalingv2.HorizontalPodAutoscalerList{ListMeta: list.ListMeta}
			for i := range list.Items {
				out.Items = append(out.Items, *asHPA(&list.Items[i]))
			}
			return out, nil
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			w, err := client.Watch(ctx, opts)
			if err != nil {
				return nil, err
			}
			return watch.Filter(w, func(e watch.Event) (watch.Event, bool) {
				if f, ok := e.Object.(*autoscalingv1alpha1.FederatedHPA); ok {
					e.Object = asHPA(f)
				}
				return e, true
			}), nil
		},
	}
	return hpaInformer{informer: cache.NewSharedIndexInformer(lw, &autoscalingv2.HorizontalPodAutoscaler{}, resync,
		cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}), share: share}
}

func (i hpaInformer) Informer() cache.SharedIndexInformer { return i.informer }

func (i hpaInformer) Lister() autoscalinglisters.HorizontalPodAutoscalerLister {
	return calibratedLister{HorizontalPodAutoscalerLister: autoscalinglisters.NewHorizontalPodAutoscalerLister(i.informer.GetIndexer()), share: i.share}
}

// calibratedLister answers the autoscaler's reads (it reads one HPA at a
// time, by name) at the share of the moment.
type calibratedLister struct {
	autoscalinglisters.HorizontalPodAutoscalerLister
	share shareFunc
}

func (l calibratedLister) HorizontalPodAutoscalers(namespace string) autoscalinglisters.HorizontalPodAutoscalerNamespaceLister {
	return calibratedNamespaceLister{HorizontalPodAutoscalerNamespaceLister: l.HorizontalPodAutoscalerLister.HorizontalPodAutoscalers(namespace), share: l.share}
}

type calibratedNamespaceLister struct {
	autoscalinglisters.HorizontalPodAutoscalerNamespaceLister
	share shareFunc
}

func (l calibratedNamespaceLister) Get(name string) (*autoscalingv2.HorizontalPodAutoscaler, error) {
	h, err := l.HorizontalPodAutoscalerNamespaceLister.Get(name)
	if err != nil || l.share == nil {
		return h, err
	}
	ref := h.Spec.ScaleTargetRef
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		return h, nil
	}
	t := l.share(h.Namespace, gv.WithKind(ref.Kind), ref.Name)
	return calibrated(h, t.share, t.replicas), nil
}

// hpaStatusWriter writes the autoscaler's status to the FederatedHPA; the
// autoscaler writes nothing else. stored holds the FederatedHPAs as the
// informer has them (as HPAs, uncalibrated).
type hpaStatusWriter struct {
	mco    mcoclient.Interface
	stored cache.Indexer
}

func (w hpaStatusWriter) HorizontalPodAutoscalers(namespace string) autoscalingclient.HorizontalPodAutoscalerInterface {
	return hpaStatusClient{mco: w.mco, stored: w.stored, namespace: namespace}
}

type hpaStatusClient struct {
	// The other methods are never called by the autoscaler.
	autoscalingclient.HorizontalPodAutoscalerInterface
	mco       mcoclient.Interface
	stored    cache.Indexer
	namespace string
}

// UpdateStatus writes the status in template replicas, unless the
// FederatedHPA has it already (the autoscaler compares it with its view in
// counted pods); the view's bounds are not written.
func (c hpaStatusClient) UpdateStatus(ctx context.Context, h *autoscalingv2.HorizontalPodAutoscaler, opts metav1.UpdateOptions) (*autoscalingv2.HorizontalPodAutoscaler, error) {
	h = uncalibratedStatus(h)
	if c.stored != nil {
		if obj, ok, err := c.stored.GetByKey(c.namespace + "/" + h.Name); err == nil && ok {
			if have, ok := obj.(*autoscalingv2.HorizontalPodAutoscaler); ok && apiequality.Semantic.DeepEqual(have.Status, h.Status) {
				return have.DeepCopy(), nil
			}
		}
	}
	updated, err := c.mco.AutoscalingV1alpha1().FederatedHPAs(c.namespace).UpdateStatus(ctx, asFederatedHPA(h), opts)
	if err != nil {
		return nil, fmt.Errorf("update status of FederatedHPA %s/%s: %w", c.namespace, h.Name, err)
	}
	return asHPA(updated), nil
}

// fhpaEvents names the FederatedHPA in the Events the autoscaler records
// about its HorizontalPodAutoscaler view.
type fhpaEvents struct{ corev1client.EventsGetter }

func (e fhpaEvents) Events(namespace string) corev1client.EventInterface {
	return fhpaEventClient{e.EventsGetter.Events(namespace)}
}

type fhpaEventClient struct{ corev1client.EventInterface }

func (c fhpaEventClient) CreateWithEventNamespace(event *corev1.Event) (*corev1.Event, error) {
	return c.EventInterface.CreateWithEventNamespace(aboutFHPA(event))
}

func (c fhpaEventClient) UpdateWithEventNamespace(event *corev1.Event) (*corev1.Event, error) {
	return c.EventInterface.UpdateWithEventNamespace(aboutFHPA(event))
}

func aboutFHPA(event *corev1.Event) *corev1.Event {
	if event.InvolvedObject.Kind == "HorizontalPodAutoscaler" {
		event = event.DeepCopy()
		event.InvolvedObject.Kind = autoscalingv1alpha1.ResourceKindFederatedHPA
		event.InvolvedObject.APIVersion = autoscalingv1alpha1.SchemeGroupVersion.String()
	}
	return event
}
