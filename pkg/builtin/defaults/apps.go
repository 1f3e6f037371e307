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
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

const (
	// revisionHistoryLimit is how many old revisions a workload keeps.
	revisionHistoryLimit int32 = 10
	// progressDeadlineSeconds is how long a Deployment may make no progress
	// before it is reported as failed.
	progressDeadlineSeconds int32 = 600
)

// Deployment defaults a Deployment: one replica, a 25%/25% rolling update,
// ten old ReplicaSets kept and a ten minute progress deadline.
func Deployment(d *appsv1.Deployment) {
	s := &d.Spec
	if s.Replicas == nil {
		s.Replicas = ptr.To[int32](1)
	}
	if s.Strategy.Type == "" {
		s.Strategy.Type = appsv1.RollingUpdateDeploymentStrategyType
	}
	if s.Strategy.Type == appsv1.RollingUpdateDeploymentStrategyType {
		if s.Strategy.RollingUpdate == nil {
			s.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{}
		}
		ru := s.Strategy.RollingUpdate
		if ru.MaxUnavailable == nil {
			ru.MaxUnavailable = ptr.To(intstr.FromString("25%"))
		}
		if ru.MaxSurge == nil {
			ru.MaxSurge = ptr.To(intstr.FromString("25%"))
		}
	}
	if s.RevisionHistoryLimit == nil {
		s.RevisionHistoryLimit = ptr.To(revisionHistoryLimit)
	}
	if s.ProgressDeadlineSeconds == nil {
		s.ProgressDeadlineSeconds = ptr.To(progressDeadlineSeconds)
	}
	PodTemplateSpec(&s.Template)
}

// StatefulSet defaults a StatefulSet: one replica, ordered pod management,
// a rolling update from partition 0 replacing one pod at a time, ten
// revisions kept, claims retained, and the volume claim templates defaulted
// like PersistentVolumeClaims.
func StatefulSet(ss *appsv1.StatefulSet) {
	s := &ss.Spec
	if s.Replicas == nil {
		s.Replicas = ptr.To[int32](1)
	}
	if s.PodManagementPolicy == "" {
		s.PodManagementPolicy = appsv1.OrderedReadyPodManagement
	}
	if s.UpdateStrategy.Type == "" {
		s.UpdateStrategy.Type = appsv1.RollingUpdateStatefulSetStrategyType
	}
	if s.UpdateStrategy.Type == appsv1.RollingUpdateStatefulSetStrategyType {
		if s.UpdateStrategy.RollingUpdate == nil {
			s.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{}
		}
		ru := s.UpdateStrategy.RollingUpdate
		if ru.Partition == nil {
			ru.Partition = ptr.To[int32](0)
		}
		if ru.MaxUnavailable == nil {
			ru.MaxUnavailable = ptr.To(intstr.FromInt32(1))
		}
	}
	if s.RevisionHistoryLimit == nil {
		s.RevisionHistoryLimit = ptr.To(revisionHistoryLimit)
	}
	if s.PersistentVolumeClaimRetentionPolicy == nil {
		s.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{}
	}
	rp := s.PersistentVolumeClaimRetentionPolicy
	if rp.WhenDeleted == "" {
		rp.WhenDeleted = appsv1.RetainPersistentVolumeClaimRetentionPolicyType
	}
	if rp.WhenScaled == "" {
		rp.WhenScaled = appsv1.RetainPersistentVolumeClaimRetentionPolicyType
	}
	for i := range s.VolumeClaimTemplates {
		PersistentVolumeClaim(&s.VolumeClaimTemplates[i])
	}
	PodTemplateSpec(&s.Template)
}

// DaemonSet defaults a DaemonSet: a rolling update that takes down one pod
// at a time without surging, and ten revisions kept.
func DaemonSet(ds *appsv1.DaemonSet) {
	s := &ds.Spec
	if s.UpdateStrategy.Type == "" {
		s.UpdateStrategy.Type = appsv1.RollingUpdateDaemonSetStrategyType
	}
	if s.UpdateStrategy.Type == appsv1.RollingUpdateDaemonSetStrategyType {
		if s.UpdateStrategy.RollingUpdate == nil {
			s.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateDaemonSet{}
		}
		ru := s.UpdateStrategy.RollingUpdate
		if ru.MaxUnavailable == nil {
			ru.MaxUnavailable = ptr.To(intstr.FromInt32(1))
		}
		if ru.MaxSurge == nil {
			ru.MaxSurge = ptr.To(intstr.FromInt32(0))
		}
	}
	if s.RevisionHistoryLimit == nil {
		s.RevisionHistoryLimit = ptr.To(revisionHistoryLimit)
	}
	PodTemplateSpec(&s.Template)
}

// ReplicaSet defaults a ReplicaSet to one replica.
func ReplicaSet(rs *appsv1.ReplicaSet) {
	if rs.Spec.Replicas == nil {
		rs.Spec.Replicas = ptr.To[int32](1)
	}
	PodTemplateSpec(&rs.Spec.Template)
}
