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
	"errors"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"
	customclient "k8s.io/metrics/pkg/client/custom_metrics"
	externalclient "k8s.io/metrics/pkg/client/external_metrics"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	clusterlisters "github.com/mco-org/mco/pkg/generated/listers/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/member"
	registrymetrics "github.com/mco-org/mco/pkg/registry/metrics"
)

// clustersOf lists Clusters, Ready unless named in notReady.
func clustersOf(names ...string) clusterlisters.ClusterLister {
	idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, n := range names {
		status := metav1.ConditionTrue
		if strings.HasSuffix(n, "-down") {
			status = metav1.ConditionFalse
		}
		_ = idx.Add(&clusterv1alpha1.Cluster{ObjectMeta: metav1.ObjectMeta{Name: n},
			Status: clusterv1alpha1.ClusterStatus{Conditions: []metav1.Condition{{Type: clusterv1alpha1.ClusterConditionReady, Status: status}}}})
	}
	return clusterlisters.NewClusterLister(idx)
}

// reached is a member.Source reaching every cluster.
type reached struct{ clients map[string]*member.Clients }

func (r reached) Reaches(string) bool { return true }
func (r reached) Get(c string) (*member.Clients, error) {
	if cl, ok := r.clients[c]; ok {
		return cl, nil
	}
	return nil, errors.New("no clients")
}
func (reached) Forget(string)         {}
func (reached) OnChange(func(string)) {}
func (reached) HasSynced() bool       { return true }

// fakeMember answers a member's custom and external metrics: value per
// pod name, or an error.
type fakeMember struct {
	values map[string]int64
	err    error
}

func (f fakeMember) RootScopedMetrics() customclient.MetricsInterface       { return f }
func (f fakeMember) NamespacedMetrics(string) customclient.MetricsInterface { return f }

func (f fakeMember) GetForObjects(gk schema.GroupKind, _ labels.Selector, metric string, _ labels.Selector) (*custommetricsv1beta2.MetricValueList, error) {
	if f.err != nil {
		return nil, f.err
	}
	out := &custommetricsv1beta2.MetricValueList{}
	for name, v := range f.values {
		if !strings.HasPrefix(name, "web-") {
			continue // the pods
		}
		out.Items = append(out.Items, custommetricsv1beta2.MetricValue{
			DescribedObject: corev1.ObjectReference{Kind: gk.Kind, Namespace: "shop", Name: name},
			Metric:          custommetricsv1beta2.MetricIdentifier{Name: metric},
			Timestamp:       metav1.NewTime(time.Unix(1000, 0)), Value: *resource.NewQuantity(v, resource.DecimalSI),
		})
	}
	return out, nil
}

func (f fakeMember) GetForObject(gk schema.GroupKind, name, metric string, _ labels.Selector) (*custommetricsv1beta2.MetricValue, error) {
	if f.err != nil {
		return nil, f.err
	}
	v, ok := f.values[name]
	if !ok {
		return nil, errors.New("not found")
	}
	return &custommetricsv1beta2.MetricValue{DescribedObject: corev1.ObjectReference{Kind: gk.Kind, Name: name},
		Timestamp: metav1.NewTime(time.Unix(1000+v, 0)), Value: *resource.NewQuantity(v, resource.DecimalSI)}, nil
}

type fakeExternal struct{ f fakeMember }

func (e fakeExternal) NamespacedMetrics(string) externalclient.MetricsInterface { return e }

func (e fakeExternal) List(string, labels.Selector) (*externalmetricsv1beta1.ExternalMetricValueList, error) {
	if e.f.err != nil {
		return nil, e.f.err
	}
	out := &externalmetricsv1beta1.ExternalMetricValueList{}
	for _, v := range e.f.values {
		out.Items = append(out.Items, externalmetricsv1beta1.ExternalMetricValue{Value: *resource.NewQuantity(v, resource.DecimalSI)})
	}
	return out, nil
}

// membersServing builds memberMetricAPIs over members answering as given.
func membersServing(members map[string]fakeMember) *memberMetricAPIs {
	var names []string
	src := reached{clients: map[string]*member.Clients{}}
	for n := range members {
		names = append(names, n)
		src.clients[n] = &member.Clients{Cluster: n}
	}
	m := newMemberMetricAPIs(counting{clusters: clustersOf(names...), members: src})
	for n, f := range members {
		m.apis[src.clients[n]] = &metricAPIs{custom: f, external: fakeExternal{f}}
	}
	return m
}

func TestCustomMetricsAcrossMembers(t *testing.T) {
	t.Parallel()
	pods := schema.GroupKind{Kind: "Pod"}
	m := membersServing(map[string]fakeMember{
		"member1":      {values: map[string]int64{"web-1": 10, "ingress": 30}},
		"member2":      {values: map[string]int64{"web-1": 20, "ingress": 12}},
		"member3":      {err: errors.New(`no custom metrics API (custom.metrics.k8s.io) registered`)},
		"member4-down": {values: map[string]int64{"web-1": 99, "ingress": 99}},
	})
	list, err := m.NamespacedMetrics("shop").GetForObjects(pods, labels.Everything(), "requests", labels.Everything())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range list.Items {
		got = append(got, v.DescribedObject.Name+"="+v.Value.String())
	}
	sort.Strings(got)
	if strings.Join(got, " ") != "web-1.member1=10 web-1.member2=20" {
		t.Errorf("pods metric across members: %v (a member not Ready is left out, one without the API too)", got)
	}
	only1, err := labels.Parse("app=web," + registrymetrics.ClusterKey + " in (member1,member9)")
	if err != nil {
		t.Fatal(err)
	}
	list, err = m.NamespacedMetrics("shop").GetForObjects(pods, only1, "requests", labels.Everything())
	if err != nil || len(list.Items) != 1 || list.Items[0].DescribedObject.Name != "web-1.member1" {
		t.Errorf("pods metric of member1 alone: %+v, %v", list, err)
	}
	v, err := m.NamespacedMetrics("shop").GetForObject(schema.GroupKind{Group: "networking.k8s.io", Kind: "Ingress"}, "ingress", "requests", labels.Everything())
	if err != nil {
		t.Fatal(err)
	}
	if v.Value.Value() != 42 || v.Timestamp.Unix() != 1030 {
		t.Errorf("object metric %s at %d, want the members' sum 42 at the newest time 1030", v.Value.String(), v.Timestamp.Unix())
	}
	ext, err := m.external().NamespacedMetrics("shop").List("queue", labels.Everything())
	if err != nil {
		t.Fatal(err)
	}
	if len(ext.Items) != 4 {
		t.Errorf("external metric: %d values, want each answering member's (4)", len(ext.Items))
	}

	none := membersServing(map[string]fakeMember{"member3": {err: errors.New("no custom metrics API (custom.metrics.k8s.io) registered")}})
	if _, err := none.NamespacedMetrics("shop").GetForObjects(pods, labels.Everything(), "requests", labels.Everything()); err == nil ||
		!strings.Contains(err.Error(), "cluster member3: no custom metrics API") {
		t.Errorf("no member serving: %v, want each member's reason", err)
	}
}

// The autoscaler's own calculation over a Pods metric read across members.
func TestPodsMetricThroughKubernetesClient(t *testing.T) {
	t.Parallel()
	m := membersServing(map[string]fakeMember{
		"member1": {values: map[string]int64{"web-1": 10}},
		"member2": {values: map[string]int64{"web-1": 20}},
	})
	client := newMetricsClient(twoMembersGetter{}, m)
	got, _, err := client.GetRawMetric("requests", "shop", labels.Everything(), labels.Everything())
	if err != nil {
		t.Fatal(err)
	}
	if got["web-1.member1"].Value != 10000 || got["web-1.member2"].Value != 20000 {
		t.Errorf("pods metric (milli-units) %v", got)
	}
}
