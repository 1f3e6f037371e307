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

package metrics

import (
	"context"
	"fmt"
	"sort"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/metrics/pkg/apis/metrics"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
)

// PodREST serves pods.metrics.k8s.io: the PodMetrics of every member.
type PodREST struct {
	src Source
}

// NewPods returns the storage of pods.metrics.k8s.io.
func NewPods(src Source) *PodREST { return &PodREST{src: src} }

var (
	_ rest.Storage              = &PodREST{}
	_ rest.KindProvider         = &PodREST{}
	_ rest.Scoper               = &PodREST{}
	_ rest.Lister               = &PodREST{}
	_ rest.Getter               = &PodREST{}
	_ rest.SingularNameProvider = &PodREST{}
)

// New returns an empty PodMetrics.
func (r *PodREST) New() runtime.Object { return &metrics.PodMetrics{} }

// Destroy releases nothing.
func (r *PodREST) Destroy() {}

// Kind is PodMetrics.
func (r *PodREST) Kind() string { return "PodMetrics" }

// NamespaceScoped: pod metrics live in their pods' namespaces.
func (r *PodREST) NamespaceScoped() bool { return true }

// GetSingularName is podmetrics, as metrics-server names it.
func (r *PodREST) GetSingularName() string { return "podmetrics" }

// NewList returns an empty PodMetricsList.
func (r *PodREST) NewList() runtime.Object { return &metrics.PodMetricsList{} }

// List reads the PodMetrics of the request's namespace (all when none)
// from every member the cluster requirements of the label selector pass,
// passing the other requirements and the field selector on.
func (r *PodREST) List(ctx context.Context, opts *metainternalversion.ListOptions) (runtime.Object, error) {
	ns := genericapirequest.NamespaceValue(ctx)
	cluster, others := SplitByCluster(labelSelector(opts))
	memberOpts := metav1.ListOptions{LabelSelector: others.String(), FieldSelector: fieldSelector(opts)}
	lists, err := fanOut(ctx, r.src, cluster, func(ctx context.Context, m Member) ([]metrics.PodMetrics, error) {
		list, err := m.Client.PodMetricses(ns).List(ctx, memberOpts)
		if err != nil {
			return nil, err
		}
		out := make([]metrics.PodMetrics, 0, len(list.Items))
		for i := range list.Items {
			var pm metrics.PodMetrics
			if err := metricsv1beta1.Convert_v1beta1_PodMetrics_To_metrics_PodMetrics(&list.Items[i], &pm, nil); err != nil {
				return nil, fmt.Errorf("convert pod metrics: %w", err)
			}
			stamp(&pm.ObjectMeta, m.Cluster)
			out = append(out, pm)
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	out := &metrics.PodMetricsList{}
	for _, l := range lists {
		out.Items = append(out.Items, l...)
	}
	sort.SliceStable(out.Items, func(i, j int) bool {
		a, b := out.Items[i], out.Items[j]
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
	return out, nil
}

// Get reads one pod's metrics; a pod of that name in several members is a
// conflict (list with the cluster's label to tell them apart).
func (r *PodREST) Get(ctx context.Context, name string, _ *metav1.GetOptions) (runtime.Object, error) {
	ns := genericapirequest.NamespaceValue(ctx)
	found, err := fanOut(ctx, r.src, anyCluster(), func(ctx context.Context, m Member) (*metrics.PodMetrics, error) {
		got, err := m.Client.PodMetricses(ns).Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		var pm metrics.PodMetrics
		if err := metricsv1beta1.Convert_v1beta1_PodMetrics_To_metrics_PodMetrics(got, &pm, nil); err != nil {
			return nil, fmt.Errorf("convert pod metrics: %w", err)
		}
		stamp(&pm.ObjectMeta, m.Cluster)
		return &pm, nil
	})
	if err != nil {
		return nil, err
	}
	return one(found, metrics.Resource("pods"), name)
}

// ConvertToTable prints the cluster, CPU and memory of each item.
func (r *PodREST) ConvertToTable(_ context.Context, obj runtime.Object, _ runtime.Object) (*metav1.Table, error) {
	var items []metrics.PodMetrics
	switch o := obj.(type) {
	case *metrics.PodMetricsList:
		items = o.Items
	case *metrics.PodMetrics:
		items = []metrics.PodMetrics{*o}
	default:
		return nil, fmt.Errorf("unexpected object %T", obj)
	}
	t := &metav1.Table{ColumnDefinitions: columns}
	if l, ok := obj.(*metrics.PodMetricsList); ok {
		t.ResourceVersion = l.ResourceVersion
	}
	for i := range items {
		pm := &items[i]
		var cpu, memory int64
		for _, c := range pm.Containers {
			cpu += c.Usage.Cpu().MilliValue()
			memory += c.Usage.Memory().Value()
		}
		t.Rows = append(t.Rows, row(&pm.ObjectMeta, pm, cpu, memory, pm.Window.Duration))
	}
	return t, nil
}
