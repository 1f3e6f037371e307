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
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/metrics/pkg/apis/metrics"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
)

// NodeREST serves nodes.metrics.k8s.io: the NodeMetrics of every member.
type NodeREST struct {
	src Source
}

// NewNodes returns the storage of nodes.metrics.k8s.io.
func NewNodes(src Source) *NodeREST { return &NodeREST{src: src} }

var (
	_ rest.Storage              = &NodeREST{}
	_ rest.KindProvider         = &NodeREST{}
	_ rest.Scoper               = &NodeREST{}
	_ rest.Lister               = &NodeREST{}
	_ rest.Getter               = &NodeREST{}
	_ rest.SingularNameProvider = &NodeREST{}
)

// New returns an empty NodeMetrics.
func (r *NodeREST) New() runtime.Object { return &metrics.NodeMetrics{} }

// Destroy releases nothing.
func (r *NodeREST) Destroy() {}

// Kind is NodeMetrics.
func (r *NodeREST) Kind() string { return "NodeMetrics" }

// NamespaceScoped: nodes are cluster-scoped.
func (r *NodeREST) NamespaceScoped() bool { return false }

// GetSingularName is nodemetrics, as metrics-server names it.
func (r *NodeREST) GetSingularName() string { return "nodemetrics" }

// NewList returns an empty NodeMetricsList.
func (r *NodeREST) NewList() runtime.Object { return &metrics.NodeMetricsList{} }

// List reads the NodeMetrics of every member the cluster requirements of
// the label selector pass.
func (r *NodeREST) List(ctx context.Context, opts *metainternalversion.ListOptions) (runtime.Object, error) {
	cluster, others := SplitByCluster(labelSelector(opts))
	memberOpts := metav1.ListOptions{LabelSelector: others.String(), FieldSelector: fieldSelector(opts)}
	lists, err := fanOut(ctx, r.src, cluster, func(ctx context.Context, m Member) ([]metrics.NodeMetrics, error) {
		list, err := m.Client.NodeMetricses().List(ctx, memberOpts)
		if err != nil {
			return nil, err
		}
		out := make([]metrics.NodeMetrics, 0, len(list.Items))
		for i := range list.Items {
			var nm metrics.NodeMetrics
			if err := metricsv1beta1.Convert_v1beta1_NodeMetrics_To_metrics_NodeMetrics(&list.Items[i], &nm, nil); err != nil {
				return nil, fmt.Errorf("convert node metrics: %w", err)
			}
			stamp(&nm.ObjectMeta, m.Cluster)
			out = append(out, nm)
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	out := &metrics.NodeMetricsList{}
	for _, l := range lists {
		out.Items = append(out.Items, l...)
	}
	sort.SliceStable(out.Items, func(i, j int) bool { return out.Items[i].Name < out.Items[j].Name })
	return out, nil
}

// Get reads one node's metrics; a node of that name in several members is
// a conflict.
func (r *NodeREST) Get(ctx context.Context, name string, _ *metav1.GetOptions) (runtime.Object, error) {
	found, err := fanOut(ctx, r.src, anyCluster(), func(ctx context.Context, m Member) (*metrics.NodeMetrics, error) {
		got, err := m.Client.NodeMetricses().Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		var nm metrics.NodeMetrics
		if err := metricsv1beta1.Convert_v1beta1_NodeMetrics_To_metrics_NodeMetrics(got, &nm, nil); err != nil {
			return nil, fmt.Errorf("convert node metrics: %w", err)
		}
		stamp(&nm.ObjectMeta, m.Cluster)
		return &nm, nil
	})
	if err != nil {
		return nil, err
	}
	return one(found, metrics.Resource("nodes"), name)
}

// ConvertToTable prints the cluster, CPU and memory of each item.
func (r *NodeREST) ConvertToTable(_ context.Context, obj runtime.Object, _ runtime.Object) (*metav1.Table, error) {
	var items []metrics.NodeMetrics
	switch o := obj.(type) {
	case *metrics.NodeMetricsList:
		items = o.Items
	case *metrics.NodeMetrics:
		items = []metrics.NodeMetrics{*o}
	default:
		return nil, fmt.Errorf("unexpected object %T", obj)
	}
	t := &metav1.Table{ColumnDefinitions: columns}
	for i := range items {
		nm := &items[i]
		t.Rows = append(t.Rows, row(&nm.ObjectMeta, nm, nm.Usage.Cpu().MilliValue(), nm.Usage.Memory().Value(), nm.Window.Duration))
	}
	return t, nil
}
