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
	"net"
	"regexp"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
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

// ValidateServiceStatusUpdate checks a Service's load-balancer ingress
// points (an IP address or a DNS hostname that is not an IP, ipMode only
// with an IP, valid port statuses) and its conditions.
func ValidateServiceStatusUpdate(svc, _ *corev1.Service) field.ErrorList {
	var errs field.ErrorList
	ingressPath := statusPath.Child("loadBalancer", "ingress")
	for i, ing := range svc.Status.LoadBalancer.Ingress {
		p := ingressPath.Index(i)
		if ing.IP != "" {
			errs = append(errs, utilvalidation.IsValidIP(p.Child("ip"), ing.IP)...)
		}
		if ing.Hostname != "" {
			errs = append(errs, validateDNSSubdomain(ing.Hostname, p.Child("hostname"))...)
			if net.ParseIP(ing.Hostname) != nil {
				errs = append(errs, field.Invalid(p.Child("hostname"), ing.Hostname, "must be a DNS name, not an IP address"))
			}
		}
		if ing.IPMode != nil {
			if ing.IP == "" {
				errs = append(errs, field.Required(p.Child("ip"), "must be specified when `ipMode` is set"))
			}
			errs = append(errs, validateEnum(*ing.IPMode, p.Child("ipMode"), corev1.LoadBalancerIPModeVIP, corev1.LoadBalancerIPModeProxy)...)
		}
		for j, port := range ing.Ports {
			pp := p.Child("ports").Index(j)
			for _, msg := range utilvalidation.IsValidPortNum(int(port.Port)) {
				errs = append(errs, field.Invalid(pp.Child("port"), port.Port, msg))
			}
			errs = append(errs, validateEnum(port.Protocol, pp.Child("protocol"), corev1.ProtocolTCP, corev1.ProtocolUDP, corev1.ProtocolSCTP)...)
			if port.Error != nil {
				errs = append(errs, validatePortError(*port.Error, pp.Child("error"))...)
			}
		}
	}
	return append(errs, metav1validation.ValidateConditions(svc.Status.Conditions, statusPath.Child("conditions"))...)
}

// ValidatePersistentVolumeClaimStatusUpdate checks a claim's phase and that
// its capacity and allocated resources are not negative.
func ValidatePersistentVolumeClaimStatusUpdate(pvc, _ *corev1.PersistentVolumeClaim) field.ErrorList {
	s := &pvc.Status
	errs := validateOptionalEnum(s.Phase, statusPath.Child("phase"), corev1.ClaimPending, corev1.ClaimBound, corev1.ClaimLost)
	for _, list := range []struct {
		name      string
		resources corev1.ResourceList
	}{{"capacity", s.Capacity}, {"allocatedResources", s.AllocatedResources}} {
		for name, q := range list.resources {
			if q.Sign() < 0 {
				errs = append(errs, field.Invalid(statusPath.Child(list.name).Key(string(name)), q.String(), "must be greater than or equal to 0"))
			}
		}
	}
	return errs
}

// portErrorFormat is the CamelCase reason format of a port status's error,
// the one of condition reasons.
var portErrorFormat = regexp.MustCompile(`^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$`)

const maxPortErrorLength = 316

func validatePortError(value string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(value) > maxPortErrorLength {
		errs = append(errs, field.TooLong(fldPath, value, maxPortErrorLength))
	}
	if !portErrorFormat.MatchString(value) {
		errs = append(errs, field.Invalid(fldPath, value, "must be a CamelCase reason, e.g. 'ConnectionRefused', matching the regex "+portErrorFormat.String()))
	}
	return errs
}
