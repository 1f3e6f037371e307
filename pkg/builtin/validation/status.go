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
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The Validate<Kind>StatusUpdate functions check a write to the status
// subresource: the new status alone, never the spec it cannot change. The
// generic registry checks metadata on every update.

var statusPath = field.NewPath("status")

// counter is a status count that may not be negative; a nil pointer is unset.
type counter struct {
	name  string
	value *int32
}

func count(name string, v int32) counter { return counter{name: name, value: &v} }

// nonNegativeCounters checks that every set counter is at least 0.
func nonNegativeCounters(counters ...counter) field.ErrorList {
	var errs field.ErrorList
	for _, c := range counters {
		errs = append(errs, optionalNonNegative(c.value, statusPath.Child(c.name))...)
	}
	return errs
}

// notAbove reports value at name when it exceeds limit.
func notAbove(name string, value, limit int32, msg string) field.ErrorList {
	if value > limit {
		return field.ErrorList{field.Invalid(statusPath.Child(name), value, msg)}
	}
	return nil
}

// ValidateDeploymentStatusUpdate checks a Deployment's status: counts are
// not negative, and none of updated, ready and available replicas exceeds
// the replicas, nor available the ready ones.
func ValidateDeploymentStatusUpdate(d, _ *appsv1.Deployment) field.ErrorList {
	s := &d.Status
	errs := validateNonNegative(s.ObservedGeneration, statusPath.Child("observedGeneration"))
	errs = append(errs, nonNegativeCounters(
		count("replicas", s.Replicas),
		count("updatedReplicas", s.UpdatedReplicas),
		count("readyReplicas", s.ReadyReplicas),
		count("availableReplicas", s.AvailableReplicas),
		count("unavailableReplicas", s.UnavailableReplicas),
		counter{"terminatingReplicas", s.TerminatingReplicas},
		counter{"collisionCount", s.CollisionCount},
	)...)
	const aboveReplicas = "cannot be greater than status.replicas"
	errs = append(errs, notAbove("updatedReplicas", s.UpdatedReplicas, s.Replicas, aboveReplicas)...)
	errs = append(errs, notAbove("readyReplicas", s.ReadyReplicas, s.Replicas, aboveReplicas)...)
	errs = append(errs, notAbove("availableReplicas", s.AvailableReplicas, s.Replicas, aboveReplicas)...)
	return append(errs, notAbove("availableReplicas", s.AvailableReplicas, s.ReadyReplicas, "cannot be greater than readyReplicas")...)
}

// ValidateStatefulSetStatusUpdate checks that a StatefulSet's status counts
// are not negative.
func ValidateStatefulSetStatusUpdate(ss, _ *appsv1.StatefulSet) field.ErrorList {
	s := &ss.Status
	errs := validateNonNegative(s.ObservedGeneration, statusPath.Child("observedGeneration"))
	return append(errs, nonNegativeCounters(
		count("replicas", s.Replicas),
		count("readyReplicas", s.ReadyReplicas),
		count("currentReplicas", s.CurrentReplicas),
		count("updatedReplicas", s.UpdatedReplicas),
		count("availableReplicas", s.AvailableReplicas),
		counter{"collisionCount", s.CollisionCount},
	)...)
}

// ValidateDaemonSetStatusUpdate checks that a DaemonSet's status counts are
// not negative.
func ValidateDaemonSetStatusUpdate(ds, _ *appsv1.DaemonSet) field.ErrorList {
	s := &ds.Status
	errs := validateNonNegative(s.ObservedGeneration, statusPath.Child("observedGeneration"))
	return append(errs, nonNegativeCounters(
		count("currentNumberScheduled", s.CurrentNumberScheduled),
		count("numberMisscheduled", s.NumberMisscheduled),
		count("desiredNumberScheduled", s.DesiredNumberScheduled),
		count("numberReady", s.NumberReady),
		count("updatedNumberScheduled", s.UpdatedNumberScheduled),
		count("numberAvailable", s.NumberAvailable),
		count("numberUnavailable", s.NumberUnavailable),
		counter{"collisionCount", s.CollisionCount},
	)...)
}

// ValidateReplicaSetStatusUpdate checks that a ReplicaSet's status counts
// are not negative.
func ValidateReplicaSetStatusUpdate(rs, _ *appsv1.ReplicaSet) field.ErrorList {
	s := &rs.Status
	errs := validateNonNegative(s.ObservedGeneration, statusPath.Child("observedGeneration"))
	return append(errs, nonNegativeCounters(
		count("replicas", s.Replicas),
		count("fullyLabeledReplicas", s.FullyLabeledReplicas),
		count("readyReplicas", s.ReadyReplicas),
		count("availableReplicas", s.AvailableReplicas),
		counter{"terminatingReplicas", s.TerminatingReplicas},
	)...)
}

// ValidateJobStatusUpdate checks that a Job's pod counts are not negative.
func ValidateJobStatusUpdate(j, _ *batchv1.Job) field.ErrorList {
	s := &j.Status
	return nonNegativeCounters(
		count("active", s.Active),
		count("succeeded", s.Succeeded),
		count("failed", s.Failed),
		counter{"terminating", s.Terminating},
		counter{"ready", s.Ready},
	)
}

// ValidateNamespaceStatusUpdate checks a Namespace's phase.
func ValidateNamespaceStatusUpdate(ns, _ *corev1.Namespace) field.ErrorList {
	return validateOptionalEnum(ns.Status.Phase, statusPath.Child("phase"),
		corev1.NamespaceActive, corev1.NamespaceTerminating)
}
