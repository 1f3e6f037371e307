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
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8slabels "k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// stamp labels and annotates an item with the cluster it came from.
func stamp(meta *metav1.ObjectMeta, cluster string) {
	if meta.Labels == nil {
		meta.Labels = map[string]string{}
	}
	if meta.Annotations == nil {
		meta.Annotations = map[string]string{}
	}
	meta.Labels[ClusterKey] = cluster
	meta.Annotations[ClusterKey] = cluster
}

func labelSelector(opts *metainternalversion.ListOptions) k8slabels.Selector {
	if opts == nil || opts.LabelSelector == nil {
		return k8slabels.Everything()
	}
	return opts.LabelSelector
}

func fieldSelector(opts *metainternalversion.ListOptions) string {
	if opts == nil || opts.FieldSelector == nil || opts.FieldSelector.Empty() {
		return ""
	}
	return opts.FieldSelector.String()
}

// anyCluster is a selector every cluster passes.
func anyCluster() k8slabels.Selector { return k8slabels.NewSelector() }

// one returns the single item found (nil entries are members without
// it), NotFound when none, Conflict when several members have the name.
func one[T any, PT interface {
	*T
	runtime.Object
	metav1.Object
}](found []PT, gr schema.GroupResource, name string) (runtime.Object, error) {
	var hits []PT
	var clusters []string
	for _, f := range found {
		if f == nil {
			continue
		}
		hits = append(hits, f)
		clusters = append(clusters, f.GetLabels()[ClusterKey])
	}
	switch len(hits) {
	case 0:
		return nil, apierrors.NewNotFound(gr, name)
	case 1:
		return hits[0], nil
	}
	return nil, apierrors.NewConflict(gr, name, fmt.Errorf("found in clusters %v: list with -l %s=<cluster> to choose", clusters, ClusterKey))
}

// columns of the tables kubectl get prints.
var columns = []metav1.TableColumnDefinition{
	{Name: "Name", Type: "string", Format: "name", Description: "Name of the pod or node."},
	{Name: "Cluster", Type: "string", Description: "Member cluster the metrics came from."},
	{Name: "CPU", Type: "string", Description: "CPU used, in millicores."},
	{Name: "Memory", Type: "string", Description: "Memory used, in bytes."},
	{Name: "Window", Type: "string", Description: "Interval the usage was measured over."},
}

func row(meta *metav1.ObjectMeta, obj runtime.Object, milliCPU, memory int64, window time.Duration) metav1.TableRow {
	return metav1.TableRow{
		Cells:  []any{meta.Name, meta.Labels[ClusterKey], fmt.Sprintf("%dm", milliCPU), fmt.Sprintf("%dMi", memory/(1<<20)), window.String()},
		Object: runtime.RawExtension{Object: obj},
	}
}
