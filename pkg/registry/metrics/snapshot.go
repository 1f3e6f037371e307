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
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
	metricsv1beta1client "k8s.io/metrics/pkg/client/clientset/versioned/typed/metrics/v1beta1"
)

// A Pull member's metrics reach mco-apiserver the other way round: its
// mco-agent reads the member's metrics API and reports what it read (a
// Snapshot) into a ConfigMap of its own on mco; mco-apiserver answers
// from the newest report.

// SnapshotKey is the ConfigMap key that holds a Snapshot.
const SnapshotKey = "metrics.json"

// SnapshotMaxBytes bounds an encoded Snapshot, below a ConfigMap's 1 MiB.
const SnapshotMaxBytes = 900 << 10

// Snapshot is what an agent read from its member's metrics API.
type Snapshot struct {
	// Time is when the agent read it.
	Time  metav1.Time                  `json:"time"`
	Pods  []metricsv1beta1.PodMetrics  `json:"pods,omitempty"`
	Nodes []metricsv1beta1.NodeMetrics `json:"nodes,omitempty"`
}

// NewSnapshot keeps of the lists what the metrics API answers: names,
// labels, times and usage.
func NewSnapshot(now metav1.Time, pods *metricsv1beta1.PodMetricsList, nodes *metricsv1beta1.NodeMetricsList) *Snapshot {
	s := &Snapshot{Time: now}
	trim := func(m metav1.ObjectMeta) metav1.ObjectMeta {
		return metav1.ObjectMeta{Name: m.Name, Namespace: m.Namespace, Labels: m.Labels, CreationTimestamp: m.CreationTimestamp}
	}
	if pods != nil {
		for _, p := range pods.Items {
			s.Pods = append(s.Pods, metricsv1beta1.PodMetrics{ObjectMeta: trim(p.ObjectMeta), Timestamp: p.Timestamp, Window: p.Window, Containers: p.Containers})
		}
	}
	if nodes != nil {
		for _, n := range nodes.Items {
			s.Nodes = append(s.Nodes, metricsv1beta1.NodeMetrics{ObjectMeta: trim(n.ObjectMeta), Timestamp: n.Timestamp, Window: n.Window, Usage: n.Usage})
		}
	}
	return s
}

// Encode returns the Snapshot as stored, refusing one too large for a
// ConfigMap.
func (s *Snapshot) Encode() (string, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return "", fmt.Errorf("encode metrics snapshot: %w", err)
	}
	if len(b) > SnapshotMaxBytes {
		return "", fmt.Errorf("metrics snapshot of %d pods and %d nodes is %d bytes, over %d", len(s.Pods), len(s.Nodes), len(b), SnapshotMaxBytes)
	}
	return string(b), nil
}

// DecodeSnapshot reads a stored Snapshot.
func DecodeSnapshot(data string) (*Snapshot, error) {
	s := &Snapshot{}
	if err := json.Unmarshal([]byte(data), s); err != nil {
		return nil, fmt.Errorf("decode metrics snapshot: %w", err)
	}
	return s, nil
}

// Client answers the metrics API's reads from the Snapshot, as the
// member's metrics-server would have: lists by namespace, label and field
// selector (metadata.name, metadata.namespace), gets by name.
func (s *Snapshot) Client() metricsv1beta1client.MetricsV1beta1Interface { return snapshotClient{s} }

type snapshotClient struct{ s *Snapshot }

func (c snapshotClient) RESTClient() rest.Interface { return nil }

func (c snapshotClient) PodMetricses(namespace string) metricsv1beta1client.PodMetricsInterface {
	return snapshotPods{s: c.s, namespace: namespace}
}

func (c snapshotClient) NodeMetricses() metricsv1beta1client.NodeMetricsInterface {
	return snapshotNodes{s: c.s}
}

// selectors parses a list's selectors.
func selectors(opts metav1.ListOptions) (labels.Selector, fields.Selector, error) {
	l, err := labels.Parse(opts.LabelSelector)
	if err != nil {
		return nil, nil, apierrors.NewBadRequest(err.Error())
	}
	f, err := fields.ParseSelector(opts.FieldSelector)
	if err != nil {
		return nil, nil, apierrors.NewBadRequest(err.Error())
	}
	return l, f, nil
}

func objectFields(m metav1.ObjectMeta) fields.Set {
	return fields.Set{"metadata.name": m.Name, "metadata.namespace": m.Namespace}
}

type snapshotPods struct {
	s         *Snapshot
	namespace string
}

func (p snapshotPods) List(_ context.Context, opts metav1.ListOptions) (*metricsv1beta1.PodMetricsList, error) {
	l, f, err := selectors(opts)
	if err != nil {
		return nil, err
	}
	out := &metricsv1beta1.PodMetricsList{}
	for _, pm := range p.s.Pods {
		if (p.namespace == "" || pm.Namespace == p.namespace) && l.Matches(labels.Set(pm.Labels)) && f.Matches(objectFields(pm.ObjectMeta)) {
			out.Items = append(out.Items, *pm.DeepCopy())
		}
	}
	return out, nil
}

func (p snapshotPods) Get(_ context.Context, name string, _ metav1.GetOptions) (*metricsv1beta1.PodMetrics, error) {
	for _, pm := range p.s.Pods {
		if pm.Namespace == p.namespace && pm.Name == name {
			return pm.DeepCopy(), nil
		}
	}
	return nil, apierrors.NewNotFound(metricsv1beta1.Resource("pods"), name)
}

func (p snapshotPods) Watch(context.Context, metav1.ListOptions) (watch.Interface, error) {
	return nil, apierrors.NewMethodNotSupported(metricsv1beta1.Resource("pods"), "watch")
}

type snapshotNodes struct{ s *Snapshot }

func (n snapshotNodes) List(_ context.Context, opts metav1.ListOptions) (*metricsv1beta1.NodeMetricsList, error) {
	l, f, err := selectors(opts)
	if err != nil {
		return nil, err
	}
	out := &metricsv1beta1.NodeMetricsList{}
	for _, nm := range n.s.Nodes {
		if l.Matches(labels.Set(nm.Labels)) && f.Matches(objectFields(nm.ObjectMeta)) {
			out.Items = append(out.Items, *nm.DeepCopy())
		}
	}
	return out, nil
}

func (n snapshotNodes) Get(_ context.Context, name string, _ metav1.GetOptions) (*metricsv1beta1.NodeMetrics, error) {
	for _, nm := range n.s.Nodes {
		if nm.Name == name {
			return nm.DeepCopy(), nil
		}
	}
	return nil, apierrors.NewNotFound(metricsv1beta1.Resource("nodes"), name)
}

func (n snapshotNodes) Watch(context.Context, metav1.ListOptions) (watch.Interface, error) {
	return nil, apierrors.NewMethodNotSupported(metricsv1beta1.Resource("nodes"), "watch")
}
