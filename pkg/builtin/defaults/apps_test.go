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

package defaults

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

var selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}

func TestDeploymentDefaults(t *testing.T) {
	t.Parallel()
	bare := func() *appsv1.Deployment {
		return &appsv1.Deployment{ObjectMeta: objectMeta("web"), Spec: appsv1.DeploymentSpec{Selector: selector, Template: bareTemplate()}}
	}
	full := func() *appsv1.Deployment {
		d := bare()
		d.Spec.Replicas = ptr.To[int32](1)
		d.Spec.Strategy = appsv1.DeploymentStrategy{
			Type: appsv1.RollingUpdateDeploymentStrategyType,
			RollingUpdate: &appsv1.RollingUpdateDeployment{
				MaxUnavailable: ptr.To(intstr.FromString("25%")),
				MaxSurge:       ptr.To(intstr.FromString("25%")),
			},
		}
		d.Spec.RevisionHistoryLimit = ptr.To[int32](10)
		d.Spec.ProgressDeadlineSeconds = ptr.To[int32](600)
		d.Spec.Template = defaultedTemplate(corev1.RestartPolicyAlways)
		return d
	}
	cases := []struct {
		name string
		in   func() *appsv1.Deployment
		want func() *appsv1.Deployment
	}{
		{name: "A bare deployment gets one replica, a 25% rolling update, history, a deadline and a defaulted template.",
			in: bare, want: full},
		{name: "A Recreate deployment gets no rollingUpdate parameters.",
			in: func() *appsv1.Deployment {
				d := bare()
				d.Spec.Strategy.Type = appsv1.RecreateDeploymentStrategyType
				return d
			},
			want: func() *appsv1.Deployment {
				d := full()
				d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
				return d
			}},
		{name: "Values the user set, zero replicas included, are kept and only the missing surge is filled.",
			in: func() *appsv1.Deployment {
				d := bare()
				d.Spec.Replicas = ptr.To[int32](0)
				d.Spec.RevisionHistoryLimit = ptr.To[int32](2)
				d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{MaxUnavailable: ptr.To(intstr.FromInt32(0))}
				return d
			},
			want: func() *appsv1.Deployment {
				d := full()
				d.Spec.Replicas = ptr.To[int32](0)
				d.Spec.RevisionHistoryLimit = ptr.To[int32](2)
				d.Spec.Strategy.RollingUpdate.MaxUnavailable = ptr.To(intstr.FromInt32(0))
				return d
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assertDefaulted(t, tc.in(), tc.want(), Deployment)
		})
	}
}

func TestStatefulSetDefaults(t *testing.T) {
	t.Parallel()
	claim := func() corev1.PersistentVolumeClaim {
		return corev1.PersistentVolumeClaim{
			ObjectMeta: metav1.ObjectMeta{Name: "data"},
			Spec: corev1.PersistentVolumeClaimSpec{
				AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
				Resources:   corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}},
			},
		}
	}
	bare := func() *appsv1.StatefulSet {
		return &appsv1.StatefulSet{ObjectMeta: objectMeta("db"), Spec: appsv1.StatefulSetSpec{
			Selector: selector, Template: bareTemplate(), ServiceName: "db",
			VolumeClaimTemplates: []corev1.PersistentVolumeClaim{claim()},
		}}
	}
	full := func() *appsv1.StatefulSet {
		ss := bare()
		ss.Spec.Replicas = ptr.To[int32](1)
		ss.Spec.PodManagementPolicy = appsv1.OrderedReadyPodManagement
		ss.Spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{
			Type: appsv1.RollingUpdateStatefulSetStrategyType,
			RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{
				Partition: ptr.To[int32](0), MaxUnavailable: ptr.To(intstr.FromInt32(1)),
			},
		}
		ss.Spec.RevisionHistoryLimit = ptr.To[int32](10)
		ss.Spec.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{
			WhenDeleted: appsv1.RetainPersistentVolumeClaimRetentionPolicyType,
			WhenScaled:  appsv1.RetainPersistentVolumeClaimRetentionPolicyType,
		}
		ss.Spec.VolumeClaimTemplates[0].Spec.VolumeMode = ptr.To(corev1.PersistentVolumeFilesystem)
		ss.Spec.VolumeClaimTemplates[0].Status.Phase = corev1.ClaimPending
		ss.Spec.Template = defaultedTemplate(corev1.RestartPolicyAlways)
		return ss
	}
	cases := []struct {
		name string
		in   func() *appsv1.StatefulSet
		want func() *appsv1.StatefulSet
	}{
		{name: "A bare statefulset gets ordered pods, a rolling update from partition 0, retained claims and defaulted claim templates.",
			in: bare, want: full},
		{name: "An OnDelete statefulset gets no rollingUpdate parameters.",
			in: func() *appsv1.StatefulSet {
				ss := bare()
				ss.Spec.UpdateStrategy.Type = appsv1.OnDeleteStatefulSetStrategyType
				return ss
			},
			want: func() *appsv1.StatefulSet {
				ss := full()
				ss.Spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: appsv1.OnDeleteStatefulSetStrategyType}
				return ss
			}},
		{name: "A retention policy with only whenDeleted set gets whenScaled Retain.",
			in: func() *appsv1.StatefulSet {
				ss := bare()
				ss.Spec.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{
					WhenDeleted: appsv1.DeletePersistentVolumeClaimRetentionPolicyType}
				return ss
			},
			want: func() *appsv1.StatefulSet {
				ss := full()
				ss.Spec.PersistentVolumeClaimRetentionPolicy.WhenDeleted = appsv1.DeletePersistentVolumeClaimRetentionPolicyType
				return ss
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assertDefaulted(t, tc.in(), tc.want(), StatefulSet)
		})
	}
}

func TestDaemonSetDefaults(t *testing.T) {
	t.Parallel()
	bare := func() *appsv1.DaemonSet {
		return &appsv1.DaemonSet{ObjectMeta: objectMeta("agent"), Spec: appsv1.DaemonSetSpec{Selector: selector, Template: bareTemplate()}}
	}
	full := func() *appsv1.DaemonSet {
		ds := bare()
		ds.Spec.UpdateStrategy = appsv1.DaemonSetUpdateStrategy{
			Type: appsv1.RollingUpdateDaemonSetStrategyType,
			RollingUpdate: &appsv1.RollingUpdateDaemonSet{
				MaxUnavailable: ptr.To(intstr.FromInt32(1)), MaxSurge: ptr.To(intstr.FromInt32(0)),
			},
		}
		ds.Spec.RevisionHistoryLimit = ptr.To[int32](10)
		ds.Spec.Template = defaultedTemplate(corev1.RestartPolicyAlways)
		return ds
	}
	t.Run("A bare daemonset rolls one pod at a time without surge and keeps ten revisions.", func(t *testing.T) {
		t.Parallel()
		assertDefaulted(t, bare(), full(), DaemonSet)
	})
	t.Run("An OnDelete daemonset gets no rollingUpdate parameters.", func(t *testing.T) {
		t.Parallel()
		in, want := bare(), full()
		in.Spec.UpdateStrategy.Type = appsv1.OnDeleteDaemonSetStrategyType
		want.Spec.UpdateStrategy = appsv1.DaemonSetUpdateStrategy{Type: appsv1.OnDeleteDaemonSetStrategyType}
		assertDefaulted(t, in, want, DaemonSet)
	})
}

func TestReplicaSetDefaults(t *testing.T) {
	t.Parallel()
	in := &appsv1.ReplicaSet{ObjectMeta: objectMeta("web"), Spec: appsv1.ReplicaSetSpec{Selector: selector, Template: bareTemplate()}}
	want := in.DeepCopy()
	want.Spec.Replicas = ptr.To[int32](1)
	want.Spec.Template = defaultedTemplate(corev1.RestartPolicyAlways)
	assertDefaulted(t, in, want, ReplicaSet)
}
