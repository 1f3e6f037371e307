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

package validation

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// runningDeployment is a valid Deployment with a consistent status.
func runningDeployment() *appsv1.Deployment {
	d := validDeployment()
	d.Status = appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 2, AvailableReplicas: 2, UnavailableReplicas: 1}
	return d
}

func TestValidateDeploymentStatusUpdate(t *testing.T) {
	t.Parallel()
	runUpdateCases(t, runningDeployment, ValidateDeploymentStatusUpdate, []updateCase[*appsv1.Deployment]{
		{name: "A consistent status is valid.", mutate: noUpdate[*appsv1.Deployment]},
		{name: "A status is valid even when the spec breaks a spec rule.", mutate: func(d, _ *appsv1.Deployment) {
			d.Spec.Replicas = ptr.To[int32](-5)
			d.Spec.Selector = nil
		}},
		{name: "Negative ready replicas are invalid, and now fewer than the available ones.", mutate: func(d, _ *appsv1.Deployment) {
			d.Status.ReadyReplicas = -1
		}, want: []wantErr{invalid("status.readyReplicas"), invalid("status.availableReplicas")}},
		{name: "Every negative count is reported at its own field.", mutate: func(d, _ *appsv1.Deployment) {
			d.Status = appsv1.DeploymentStatus{ObservedGeneration: -1, Replicas: -1, UpdatedReplicas: -1, ReadyReplicas: -1,
				AvailableReplicas: -1, UnavailableReplicas: -1, TerminatingReplicas: ptr.To[int32](-1), CollisionCount: ptr.To[int32](-1)}
		}, want: []wantErr{invalid("status.observedGeneration"), invalid("status.replicas"), invalid("status.updatedReplicas"),
			invalid("status.readyReplicas"), invalid("status.availableReplicas"), invalid("status.unavailableReplicas"),
			invalid("status.terminatingReplicas"), invalid("status.collisionCount")}},
		{name: "More ready than total replicas is invalid.", mutate: func(d, _ *appsv1.Deployment) { d.Status.ReadyReplicas = 4 },
			want: []wantErr{invalid("status.readyReplicas")}},
		{name: "More updated than total replicas is invalid.", mutate: func(d, _ *appsv1.Deployment) { d.Status.UpdatedReplicas = 4 },
			want: []wantErr{invalid("status.updatedReplicas")}},
		{name: "More available than ready replicas is invalid.", mutate: func(d, _ *appsv1.Deployment) { d.Status.AvailableReplicas = 3 },
			want: []wantErr{invalid("status.availableReplicas")}},
		{name: "More available than total replicas is reported twice, against both bounds.", mutate: func(d, _ *appsv1.Deployment) {
			d.Status.AvailableReplicas = 4
		}, want: []wantErr{invalid("status.availableReplicas"), invalid("status.availableReplicas")}},
	})
}

func TestValidateWorkloadStatusCounts(t *testing.T) {
	t.Parallel()
	t.Run("StatefulSet", func(t *testing.T) {
		runUpdateCases(t, validStatefulSet, ValidateStatefulSetStatusUpdate, []updateCase[*appsv1.StatefulSet]{
			{name: "An empty status is valid.", mutate: noUpdate[*appsv1.StatefulSet]},
			{name: "Negative counts are invalid.", mutate: func(s, _ *appsv1.StatefulSet) {
				s.Status.ReadyReplicas, s.Status.CollisionCount = -1, ptr.To[int32](-1)
			}, want: []wantErr{invalid("status.readyReplicas"), invalid("status.collisionCount")}},
		})
	})
	t.Run("DaemonSet", func(t *testing.T) {
		runUpdateCases(t, validDaemonSet, ValidateDaemonSetStatusUpdate, []updateCase[*appsv1.DaemonSet]{
			{name: "An empty status is valid.", mutate: noUpdate[*appsv1.DaemonSet]},
			{name: "Negative counts are invalid.", mutate: func(s, _ *appsv1.DaemonSet) {
				s.Status.NumberReady, s.Status.ObservedGeneration = -1, -1
			}, want: []wantErr{invalid("status.numberReady"), invalid("status.observedGeneration")}},
		})
	})
	t.Run("ReplicaSet", func(t *testing.T) {
		runUpdateCases(t, validReplicaSet, ValidateReplicaSetStatusUpdate, []updateCase[*appsv1.ReplicaSet]{
			{name: "An empty status is valid.", mutate: noUpdate[*appsv1.ReplicaSet]},
			{name: "Negative counts are invalid.", mutate: func(s, _ *appsv1.ReplicaSet) {
				s.Status.AvailableReplicas, s.Status.TerminatingReplicas = -1, ptr.To[int32](-2)
			}, want: []wantErr{invalid("status.availableReplicas"), invalid("status.terminatingReplicas")}},
		})
	})
	t.Run("Job", func(t *testing.T) {
		runUpdateCases(t, validJob, ValidateJobStatusUpdate, []updateCase[*batchv1.Job]{
			{name: "An empty status is valid.", mutate: noUpdate[*batchv1.Job]},
			{name: "Negative counts are invalid.", mutate: func(j, _ *batchv1.Job) {
				j.Status.Failed, j.Status.Ready = -1, ptr.To[int32](-1)
			}, want: []wantErr{invalid("status.failed"), invalid("status.ready")}},
		})
	})
}

func TestValidateNamespaceStatusUpdate(t *testing.T) {
	t.Parallel()
	valid := func() *corev1.Namespace {
		return &corev1.Namespace{ObjectMeta: objectMeta("team-a"), Status: corev1.NamespaceStatus{Phase: corev1.NamespaceActive}}
	}
	runUpdateCases(t, valid, ValidateNamespaceStatusUpdate, []updateCase[*corev1.Namespace]{
		{name: "An Active namespace is valid.", mutate: noUpdate[*corev1.Namespace]},
		{name: "A Terminating namespace is valid.", mutate: func(ns, _ *corev1.Namespace) { ns.Status.Phase = corev1.NamespaceTerminating }},
		{name: "An unknown phase is not supported.", mutate: func(ns, _ *corev1.Namespace) { ns.Status.Phase = "Sleeping" },
			want: []wantErr{notSupported("status.phase")}},
	})
}

func TestValidateServiceStatusUpdate(t *testing.T) {
	t.Parallel()
	ingress := func(ing ...corev1.LoadBalancerIngress) func(s, _ *corev1.Service) {
		return func(s, _ *corev1.Service) { s.Status.LoadBalancer.Ingress = ing }
	}
	vip := corev1.LoadBalancerIPModeVIP
	runUpdateCases(t, validService, ValidateServiceStatusUpdate, []updateCase[*corev1.Service]{
		{name: "An empty status is valid.", mutate: noUpdate[*corev1.Service]},
		{name: "Ingress by IP with a mode and by hostname, with port statuses, is valid.", mutate: ingress(
			corev1.LoadBalancerIngress{IP: "192.0.2.10", IPMode: &vip,
				Ports: []corev1.PortStatus{{Port: 80, Protocol: corev1.ProtocolTCP, Error: ptr.To("ConnectionRefused")}}},
			corev1.LoadBalancerIngress{Hostname: "lb.example.com"})},
		{name: "A malformed IP is invalid.", mutate: ingress(corev1.LoadBalancerIngress{IP: "192.0.2"}),
			want: []wantErr{invalid("status.loadBalancer.ingress[0].ip")}},
		{name: "A hostname that is an IP is invalid.", mutate: ingress(corev1.LoadBalancerIngress{Hostname: "192.0.2.10"}),
			want: []wantErr{invalid("status.loadBalancer.ingress[0].hostname")}},
		{name: "ipMode without an IP is refused, and an unknown mode is unsupported.",
			mutate: ingress(corev1.LoadBalancerIngress{Hostname: "lb.example.com", IPMode: ptr.To(corev1.LoadBalancerIPMode("Direct"))}),
			want:   []wantErr{required("status.loadBalancer.ingress[0].ip"), notSupported("status.loadBalancer.ingress[0].ipMode")}},
		{name: "A port status needs a port number, a known protocol and a CamelCase error.",
			mutate: ingress(corev1.LoadBalancerIngress{IP: "192.0.2.10", Ports: []corev1.PortStatus{{Port: 0, Protocol: "HTTP", Error: ptr.To("no route")}}}),
			want: []wantErr{invalid("status.loadBalancer.ingress[0].ports[0].port"), notSupported("status.loadBalancer.ingress[0].ports[0].protocol"),
				invalid("status.loadBalancer.ingress[0].ports[0].error")}},
		{name: "A condition without a reason is invalid.", mutate: func(s, _ *corev1.Service) {
			s.Status.Conditions = []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue, LastTransitionTime: metav1.Now()}}
		}, want: []wantErr{required("status.conditions[0].reason")}},
	})
}

func TestValidatePersistentVolumeClaimStatusUpdate(t *testing.T) {
	t.Parallel()
	runUpdateCases(t, validPVC, ValidatePersistentVolumeClaimStatusUpdate, []updateCase[*corev1.PersistentVolumeClaim]{
		{name: "An empty status is valid.", mutate: noUpdate[*corev1.PersistentVolumeClaim]},
		{name: "A bound claim with its capacity is valid.", mutate: func(c, _ *corev1.PersistentVolumeClaim) {
			c.Status = corev1.PersistentVolumeClaimStatus{Phase: corev1.ClaimBound,
				Capacity: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}}
		}},
		{name: "An unknown phase is unsupported.", mutate: func(c, _ *corev1.PersistentVolumeClaim) { c.Status.Phase = "Ready" },
			want: []wantErr{notSupported("status.phase")}},
		{name: "A negative capacity or allocation is invalid.", mutate: func(c, _ *corev1.PersistentVolumeClaim) {
			c.Status.Capacity = corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("-1Gi")}
			c.Status.AllocatedResources = corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("-1")}
		}, want: []wantErr{invalid("status.capacity[storage]"), invalid("status.allocatedResources[storage]")}},
	})
}
