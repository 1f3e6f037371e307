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
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
	metricsv1beta1client "k8s.io/metrics/pkg/client/clientset/versioned/typed/metrics/v1beta1"

	members "github.com/mco-org/mco/pkg/member"
)

// A Pull member's metrics reach mco-apiserver the other way round: its
// mco-agent reads the member's metrics API and its pods and reports what
// it read (a Snapshot) into a ConfigMap of its own on mco; mco-apiserver
// answers the metrics API from the newest report, and
// mco-controller-manager's FederatedHPA counts the reported pods.

// SnapshotKey is the ConfigMap data key that held a Snapshot as plain
// JSON (agents before the pods were reported); SnapshotGzipKey is the
// binary data key that holds it gzipped.
const (
	SnapshotKey     = "metrics.json"
	SnapshotGzipKey = "metrics.json.gz"
)

// SnapshotMaxBytes bounds an encoded Snapshot, below a ConfigMap's 1 MiB.
const SnapshotMaxBytes = 900 << 10

// ReportMaxAge is the oldest a Snapshot is read (agents report every 15 s).
const ReportMaxAge = time.Minute

// Stale says, when the Snapshot is older than ReportMaxAge at now, how old
// it is; nil while it is fresh.
func (s *Snapshot) Stale(now time.Time) error {
	if age := now.Sub(s.Time.Time); age > ReportMaxAge {
		return fmt.Errorf("its mco-agent's last report is %s old", age.Round(time.Second))
	}
	return nil
}

// Snapshot is what an agent read from its member.
type Snapshot struct {
	// Time is when the agent read it.
	Time  metav1.Time                  `json:"time"`
	Pods  []metricsv1beta1.PodMetrics  `json:"pods,omitempty"`
	Nodes []metricsv1beta1.NodeMetrics `json:"nodes,omitempty"`
	// PodObjects are the member's pods as an autoscaler reads them (labels,
	// phase, readiness, start time, requests), when PodObjectsReported.
	PodObjects         []corev1.Pod `json:"podObjects,omitempty"`
	PodObjectsReported bool         `json:"podObjectsReported,omitempty"`
	// PodObjectsLeftOut says why the pods are not reported (they could not
	// be listed; the report would not fit in a ConfigMap with them).
	PodObjectsLeftOut string `json:"podObjectsLeftOut,omitempty"`
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

// WithPods adds the member's pods, keeping what an autoscaler reads, or
// says why they are left out.
func (s *Snapshot) WithPods(pods []*corev1.Pod, err error) *Snapshot {
	if err != nil {
		s.PodObjectsLeftOut = fmt.Sprintf("the member's pods could not be listed: %v", err)
		return s
	}
	s.PodObjectsReported = true
	for _, p := range pods {
		s.PodObjects = append(s.PodObjects, autoscalerPod(p))
	}
	return s
}

// autoscalerPod keeps of a pod what Kubernetes' replica calculator reads
// (members.SlimPod), without the member's UID and resource version.
func autoscalerPod(p *corev1.Pod) corev1.Pod {
	out := members.SlimPod(p)
	out.UID, out.ResourceVersion = "", ""
	return *out
}

// Encode returns the Snapshot gzipped, as stored. One too large for a
// ConfigMap is stored without its pods, saying so, and refused when even
// its metrics are too large.
func (s *Snapshot) Encode() ([]byte, error) {
	b, err := s.gzip()
	if err != nil || len(b) <= SnapshotMaxBytes || len(s.PodObjects) == 0 {
		if err == nil && len(b) > SnapshotMaxBytes {
			err = fmt.Errorf("metrics snapshot of %d pods and %d nodes is %d bytes gzipped, over %d", len(s.Pods), len(s.Nodes), len(b), SnapshotMaxBytes)
		}
		return b, err
	}
	slim := *s
	slim.PodObjects, slim.PodObjectsReported = nil, false
	slim.PodObjectsLeftOut = fmt.Sprintf("the report with the member's %d pods is %d bytes gzipped, over %d", len(s.PodObjects), len(b), SnapshotMaxBytes)
	return slim.Encode()
}

func (s *Snapshot) gzip() ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if err := json.NewEncoder(zw).Encode(s); err != nil {
		return nil, fmt.Errorf("encode metrics snapshot: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("encode metrics snapshot: %w", err)
	}
	return buf.Bytes(), nil
}

// SnapshotOf reads the Snapshot an agent stored in its ConfigMap, gzipped
// or, from an earlier agent, as plain JSON.
func SnapshotOf(cm *corev1.ConfigMap) (*Snapshot, error) {
	s := &Snapshot{}
	if gz, ok := cm.BinaryData[SnapshotGzipKey]; ok {
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			return nil, fmt.Errorf("decode metrics snapshot: %w", err)
		}
		if err := json.NewDecoder(io.LimitReader(zr, 64<<20)).Decode(s); err != nil {
			return nil, fmt.Errorf("decode metrics snapshot: %w", err)
		}
		return s, nil
	}
	data, ok := cm.Data[SnapshotKey]
	if !ok {
		return nil, fmt.Errorf("decode metrics snapshot: configmap %s/%s holds none", cm.Namespace, cm.Name)
	}
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
