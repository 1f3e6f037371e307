package workload

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// podHealthy is Karmada's rule: a Pod is healthy once it succeeded, or
// while it runs and is ready.
func podHealthy(p *corev1.Pod) bool {
	if p.Status.Phase == corev1.PodSucceeded {
		return true
	}
	if p.Status.Phase != corev1.PodRunning {
		return false
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// aggregatePod decides the template's phase from the members', worst
// first: Failed, then Pending (a member that has not reported counts as
// Pending), Running, Succeeded. Only the phase is aggregated.
func aggregatePod(_ *corev1.Pod, members []member[corev1.PodStatus], _ metav1.Time) corev1.PodStatus {
	return corev1.PodStatus{Phase: worstPhase(members,
		func(s corev1.PodStatus) corev1.PodPhase { return s.Phase }, corev1.PodPending,
		[]corev1.PodPhase{corev1.PodFailed, corev1.PodPending, corev1.PodRunning, corev1.PodSucceeded})}
}

// aggregatePV decides the volume's phase as aggregatePod does, in the
// order Failed, Pending (not reported), Available, Bound, Released.
func aggregatePV(_ *corev1.PersistentVolume, members []member[corev1.PersistentVolumeStatus], _ metav1.Time) corev1.PersistentVolumeStatus {
	return corev1.PersistentVolumeStatus{Phase: worstPhase(members,
		func(s corev1.PersistentVolumeStatus) corev1.PersistentVolumePhase { return s.Phase }, corev1.VolumePending,
		[]corev1.PersistentVolumePhase{corev1.VolumeFailed, corev1.VolumePending, corev1.VolumeAvailable, corev1.VolumeBound, corev1.VolumeReleased})}
}

// worstPhase returns the first phase of order any member is in; members
// that have not reported are in unreported. With no member, or none in a
// phase of order, it is empty.
func worstPhase[R any, P comparable](members []member[R], phase func(R) P, unreported P, order []P) P {
	seen := map[P]bool{}
	for _, m := range members {
		if m.status == nil {
			seen[unreported] = true
			continue
		}
		seen[phase(*m.status)] = true
	}
	for _, p := range order {
		if seen[p] {
			return p
		}
	}
	var none P
	return none
}
