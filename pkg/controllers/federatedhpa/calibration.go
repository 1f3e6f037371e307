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
	"math"
	"strconv"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// The autoscaler counts the pods of the members it reaches, while a
// FederatedHPA's bounds and the template's replicas count what the
// template says. The two differ when the template is Duplicated (every
// member runs all its replicas) or when a member is left out (paused,
// unreachable): its replicas still exist but its pods are not counted.
// Karmada's FederatedHPA calibrates by the ratio of the two; here the
// autoscaler works in counted pods (the share), and the template's
// replicas, the bounds and the status are converted at the edges.

// shareAnnotation carries the share a view was made with, from where it is
// made (the scale read, the autoscaler read) to where it is converted back
// (the scale write, the status write). It never reaches mco-apiserver.
const shareAnnotation = "federatedhpa.mco.io/share"

// replicasAnnotation carries the template's replicas an HPA view was made
// with, so that the current replicas written back are exact where the
// share is a fraction.
const replicasAnnotation = "federatedhpa.mco.io/replicas"

// epsilon absorbs floating-point error when rounding a share's products.
const epsilon = 1e-9

// Share is the number of counted pods per template replica, read from
// the scheduler's choice: for a Duplicated template (each member runs all
// its replicas) the number of counted members running it; for a divided
// one the counted members' part of the replicas. It is read from the
// clusters' replicas alone, not the template's count, so that it holds
// while the scheduler has yet to divide a new count. It is 1 when nothing
// is known (no replicas, no counted member): the autoscaler then sees the
// template as it is.
func Share(spec *workv1alpha2.ResourceBindingSpec, counted func(cluster string) bool) float64 {
	if spec == nil {
		return 1
	}
	var all, in int64
	var members int
	for _, c := range spec.Clusters {
		if c.Replicas <= 0 {
			continue
		}
		all += int64(c.Replicas)
		if counted(c.Name) {
			in += int64(c.Replicas)
			members++
		}
	}
	if all == 0 || in == 0 {
		return 1
	}
	if duplicated(spec.Placement) {
		return float64(members)
	}
	return float64(in) / float64(all)
}

// duplicated tells whether a placement gives every cluster all replicas
// (Karmada's default when it says nothing).
func duplicated(p *policyv1alpha1.Placement) bool {
	return p == nil || p.ReplicaScheduling == nil || p.ReplicaScheduling.ReplicaSchedulingType == policyv1alpha1.ReplicaSchedulingTypeDuplicated
}

// toCounted converts template replicas to counted pods.
func toCounted(replicas int32, share float64) int32 {
	if replicas <= 0 {
		return replicas
	}
	return max(1, int32(math.Round(float64(replicas)*share)))
}

// toTemplate converts counted pods to template replicas, rounding up.
func toTemplate(pods int32, share float64) int32 {
	if pods <= 0 {
		return pods
	}
	return int32(math.Ceil(float64(pods)/share - epsilon))
}

// boundsToCounted converts a FederatedHPA's bounds so that any count
// between them converts back (toTemplate) to replicas within the
// original bounds.
func boundsToCounted(minReplicas, maxReplicas int32, share float64) (int32, int32) {
	hi := max(1, int32(math.Floor(float64(maxReplicas)*share+epsilon)))
	lo := max(1, int32(math.Ceil(float64(minReplicas)*share-epsilon)))
	return min(lo, hi), hi
}

// withShare records the share in a view's annotations.
func withShare(m *metav1.ObjectMeta, share float64) {
	if m.Annotations == nil {
		m.Annotations = map[string]string{}
	}
	m.Annotations[shareAnnotation] = strconv.FormatFloat(share, 'g', -1, 64)
}

// takeShare reads and removes the share a view was made with (1 when it
// carries none).
func takeShare(m *metav1.ObjectMeta) float64 {
	v, ok := m.Annotations[shareAnnotation]
	if !ok {
		return 1
	}
	delete(m.Annotations, shareAnnotation)
	if len(m.Annotations) == 0 {
		m.Annotations = nil
	}
	share, err := strconv.ParseFloat(v, 64)
	if err != nil || share <= 0 {
		return 1
	}
	return share
}

// calibrated is the autoscaler's view of an HPA at a share: bounds and
// replica counts in counted pods. replicas are the template's (negative
// when unknown).
func calibrated(h *autoscalingv2.HorizontalPodAutoscaler, share float64, replicas int32) *autoscalingv2.HorizontalPodAutoscaler {
	h = h.DeepCopy()
	withShare(&h.ObjectMeta, share)
	if replicas >= 0 {
		h.Annotations[replicasAnnotation] = strconv.Itoa(int(replicas))
	}
	minReplicas := int32(1)
	if h.Spec.MinReplicas != nil {
		minReplicas = *h.Spec.MinReplicas
	}
	lo, hi := boundsToCounted(minReplicas, h.Spec.MaxReplicas, share)
	h.Spec.MinReplicas, h.Spec.MaxReplicas = &lo, hi
	h.Status.CurrentReplicas = toCounted(h.Status.CurrentReplicas, share)
	h.Status.DesiredReplicas = toCounted(h.Status.DesiredReplicas, share)
	return h
}

// uncalibratedStatus is the status the autoscaler wrote, in template
// replicas.
func uncalibratedStatus(h *autoscalingv2.HorizontalPodAutoscaler) *autoscalingv2.HorizontalPodAutoscaler {
	h = h.DeepCopy()
	replicas := int32(-1)
	if v, err := strconv.Atoi(h.Annotations[replicasAnnotation]); err == nil {
		replicas = int32(v)
	}
	delete(h.Annotations, replicasAnnotation)
	share := takeShare(&h.ObjectMeta)
	if replicas >= 0 && toCounted(replicas, share) == h.Status.CurrentReplicas {
		h.Status.CurrentReplicas = replicas
	} else {
		h.Status.CurrentReplicas = toTemplate(h.Status.CurrentReplicas, share)
	}
	h.Status.DesiredReplicas = toTemplate(h.Status.DesiredReplicas, share)
	return h
}

// targetView is what the autoscaler's view needs of a template: its share,
// its replicas as its binding knows them (negative when it has no
// binding) and the counted clusters its binding sends it to (all it goes
// to when none is counted; none when it has no binding).
type targetView struct {
	share    float64
	replicas int32
	clusters []string
}

// shareFunc answers the targetView of a template (namespace, kind, name).
type shareFunc func(namespace string, gvk schema.GroupVersionKind, name string) targetView
