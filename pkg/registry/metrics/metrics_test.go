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
	"errors"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/metrics/pkg/apis/metrics"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
	metricsfake "k8s.io/metrics/pkg/client/clientset/versioned/fake"
)

type fakeSource struct {
	members []Member
	leftOut []string
}

func (f fakeSource) Members(context.Context) ([]Member, []string, error) {
	return f.members, f.leftOut, nil
}

func podMetrics(ns, name, app, cpu string) *metricsv1beta1.PodMetrics {
	return &metricsv1beta1.PodMetrics{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"app": app}},
		Containers: []metricsv1beta1.ContainerMetrics{{Name: "c", Usage: corev1.ResourceList{"cpu": resource.MustParse(cpu)}}}}
}

func member(cluster string, objs ...*metricsv1beta1.PodMetrics) Member {
	c := metricsfake.NewSimpleClientset()
	// The fake client reads PodMetrics under the resource "pods", where
	// the tracker's Add would guess "podmetricses".
	for _, o := range objs {
		if err := c.Tracker().Create(metricsv1beta1.SchemeGroupVersion.WithResource("pods"), o, o.Namespace); err != nil {
			panic(err)
		}
	}
	return Member{Cluster: cluster, Client: c.MetricsV1beta1()}
}

func names(list *metrics.PodMetricsList) []string {
	var out []string
	for _, p := range list.Items {
		out = append(out, p.Labels[ClusterKey]+"/"+p.Namespace+"/"+p.Name)
	}
	return out
}

func TestPodsList(t *testing.T) {
	t.Parallel()
	src := fakeSource{members: []Member{
		member("member2", podMetrics("shop", "web-b", "web", "30m"), podMetrics("shop", "db-a", "db", "5m")),
		member("member1", podMetrics("shop", "web-a", "web", "10m"), podMetrics("kube-system", "dns", "dns", "1m")),
	}, leftOut: []string{"metrics of cluster member3 left out: it is in Pull mode"}}
	r := NewPods(src)
	cases := []struct {
		name     string
		ns       string
		selector string
		want     []string
	}{
		{name: "Every namespace of every member, sorted by namespace and name.", selector: "",
			want: []string{"member1/kube-system/dns", "member2/shop/db-a", "member1/shop/web-a", "member2/shop/web-b"}},
		{name: "One namespace, a label the members evaluate.", ns: "shop", selector: "app=web",
			want: []string{"member1/shop/web-a", "member2/shop/web-b"}},
		{name: "The cluster label is evaluated by mco.", ns: "shop", selector: ClusterKey + "=member2",
			want: []string{"member2/shop/db-a", "member2/shop/web-b"}},
		{name: "Both together.", selector: ClusterKey + " in (member1),app=web", want: []string{"member1/shop/web-a"}},
		{name: "A cluster no member is.", selector: ClusterKey + "=member9"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sel, err := labels.Parse(tc.selector)
			if err != nil {
				t.Fatal(err)
			}
			ctx := genericapirequest.WithNamespace(context.Background(), tc.ns)
			obj, err := r.List(ctx, &metainternalversion.ListOptions{LabelSelector: sel})
			if err != nil {
				t.Fatal(err)
			}
			list := obj.(*metrics.PodMetricsList)
			if got := names(list); !slices.Equal(got, tc.want) {
				t.Errorf("listed %v, want %v", got, tc.want)
			}
			for _, p := range list.Items {
				if p.Annotations[ClusterKey] != p.Labels[ClusterKey] {
					t.Errorf("%s: annotation %q, label %q", p.Name, p.Annotations[ClusterKey], p.Labels[ClusterKey])
				}
			}
		})
	}
}

func TestPodsGet(t *testing.T) {
	t.Parallel()
	src := fakeSource{members: []Member{
		member("member1", podMetrics("shop", "web-a", "web", "10m"), podMetrics("shop", "twin", "web", "1m")),
		member("member2", podMetrics("shop", "twin", "web", "2m")),
	}}
	r := NewPods(src)
	ctx := genericapirequest.WithNamespace(context.Background(), "shop")
	obj, err := r.Get(ctx, "web-a", &metav1.GetOptions{})
	if err != nil || obj.(*metrics.PodMetrics).Labels[ClusterKey] != "member1" {
		t.Errorf("get web-a: %v %v", obj, err)
	}
	if _, err := r.Get(ctx, "missing", &metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("get missing: %v, want NotFound", err)
	}
	if _, err := r.Get(ctx, "twin", &metav1.GetOptions{}); !apierrors.IsConflict(err) || !strings.Contains(err.Error(), "member1 member2") {
		t.Errorf("get twin: %v, want a conflict naming both clusters", err)
	}
}

func TestFanOutLeavesFailingMembersOut(t *testing.T) {
	t.Parallel()
	src := fakeSource{members: []Member{{Cluster: "a"}, {Cluster: "b"}}}
	got, err := fanOut(context.Background(), src, anyCluster(), func(_ context.Context, m Member) (string, error) {
		if m.Cluster == "a" {
			return "", errors.New("connection refused")
		}
		return m.Cluster, nil
	})
	if err != nil || !slices.Equal(got, []string{"b"}) {
		t.Errorf("answered %v, %v; want b alone", got, err)
	}
}
