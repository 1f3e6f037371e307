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
	"strings"
	"testing"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
	resourceclient "k8s.io/metrics/pkg/client/clientset/versioned/typed/metrics/v1beta1"
	"k8s.io/utils/ptr"

	autoscalingv1alpha1 "github.com/mco-org/mco/pkg/apis/autoscaling/v1alpha1"
	registrymetrics "github.com/mco-org/mco/pkg/registry/metrics"
)

func TestViewRoundTrip(t *testing.T) {
	t.Parallel()
	f := &autoscalingv1alpha1.FederatedHPA{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", ResourceVersion: "7", UID: "u"},
		Spec: autoscalingv1alpha1.FederatedHPASpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"},
			MinReplicas:    ptr.To[int32](2), MaxReplicas: 10,
			Behavior: &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleDown: &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr.To[int32](5)}},
		},
		Status: autoscalingv2.HorizontalPodAutoscalerStatus{CurrentReplicas: 3, DesiredReplicas: 4},
	}
	h := asHPA(f)
	if h.Kind != "HorizontalPodAutoscaler" || h.Spec.MaxReplicas != 10 || *h.Spec.MinReplicas != 2 || h.Status.DesiredReplicas != 4 || h.ResourceVersion != "7" {
		t.Errorf("HPA view %+v", h)
	}
	if back := asFederatedHPA(h); !apiequality.Semantic.DeepEqual(back.Spec, f.Spec) || !apiequality.Semantic.DeepEqual(back.Status, f.Status) ||
		back.Name != "web" || back.ResourceVersion != "7" {
		t.Errorf("round trip %+v, want %+v", back, f)
	}
	h.Spec.MinReplicas = ptr.To[int32](9)
	if *f.Spec.MinReplicas != 2 {
		t.Error("the view shares memory with the FederatedHPA")
	}
}

// twoMembers answers a list as mco's metrics.k8s.io does for a pod of the
// same name in two members.
type twoMembers struct {
	resourceclient.PodMetricsInterface
}

func (twoMembers) List(context.Context, metav1.ListOptions) (*metricsv1beta1.PodMetricsList, error) {
	out := &metricsv1beta1.PodMetricsList{}
	for _, cluster := range []string{"member1", "member2"} {
		out.Items = append(out.Items, metricsv1beta1.PodMetrics{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-1",
			Labels: map[string]string{"app": "web", registrymetrics.ClusterKey: cluster}},
			Containers: []metricsv1beta1.ContainerMetrics{{Name: "c", Usage: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("20m")}}}})
	}
	return out, nil
}

type twoMembersGetter struct{}

func (twoMembersGetter) PodMetricses(string) resourceclient.PodMetricsInterface { return twoMembers{} }

func TestPodMetricsKeyedByCluster(t *testing.T) {
	t.Parallel()
	client := newMetricsClient(twoMembersGetter{}, newMemberMetricAPIs(counting{clusters: clustersOf()}))
	got, _, err := client.GetResourceMetric(context.Background(), corev1.ResourceCPU, "shop", labels.Everything(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"web-1.member1", "web-1.member2"} {
		if got[key].Value != 20 {
			t.Errorf("metric of %s: %+v (all %v)", key, got[key], got)
		}
	}
	if _, _, err := client.GetRawMetric("requests", "shop", labels.Everything(), labels.Everything()); err == nil || !strings.Contains(err.Error(), "no Ready member cluster is reached") {
		t.Errorf("a custom metric without members: %v", err)
	}
}

func TestEventsNameTheFederatedHPA(t *testing.T) {
	t.Parallel()
	e := &corev1.Event{InvolvedObject: corev1.ObjectReference{Kind: "HorizontalPodAutoscaler", APIVersion: "autoscaling/v2", Name: "web"}}
	got := aboutFHPA(e)
	if got.InvolvedObject.Kind != "FederatedHPA" || got.InvolvedObject.APIVersion != "autoscaling.karmada.io/v1alpha1" || got.InvolvedObject.Name != "web" {
		t.Errorf("event about %+v", got.InvolvedObject)
	}
	if e.InvolvedObject.Kind != "HorizontalPodAutoscaler" {
		t.Error("the recorder's event was changed in place")
	}
}
