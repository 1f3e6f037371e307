package workload

import (
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// pdbHealthy is Karmada's rule: a PodDisruptionBudget is healthy while at
// least as many pods are healthy as it wants.
func pdbHealthy(p *policyv1.PodDisruptionBudget) bool {
	return p.Status.CurrentHealthy >= p.Status.DesiredHealthy
}

// aggregatePDB sums the members' pod counts and allowed disruptions, and
// names each disrupted pod "<cluster>/<pod>", as Karmada does.
func aggregatePDB(_ *policyv1.PodDisruptionBudget, members []member[policyv1.PodDisruptionBudgetStatus], _ metav1.Time) policyv1.PodDisruptionBudgetStatus {
	var out policyv1.PodDisruptionBudgetStatus
	for _, m := range members {
		if m.status == nil {
			continue
		}
		s := m.status
		out.CurrentHealthy += s.CurrentHealthy
		out.DesiredHealthy += s.DesiredHealthy
		out.ExpectedPods += s.ExpectedPods
		out.DisruptionsAllowed += s.DisruptionsAllowed
		for pod, at := range s.DisruptedPods {
			if out.DisruptedPods == nil {
				out.DisruptedPods = map[string]metav1.Time{}
			}
			out.DisruptedPods[m.cluster+"/"+pod] = at
		}
	}
	return out
}

// aggregateHPA sums the replicas the members' autoscalers run and want,
// and takes the latest scale time.
func aggregateHPA(_ *autoscalingv2.HorizontalPodAutoscaler, members []member[autoscalingv2.HorizontalPodAutoscalerStatus], _ metav1.Time) autoscalingv2.HorizontalPodAutoscalerStatus {
	var out autoscalingv2.HorizontalPodAutoscalerStatus
	for _, m := range members {
		if m.status == nil {
			continue
		}
		out.CurrentReplicas += m.status.CurrentReplicas
		out.DesiredReplicas += m.status.DesiredReplicas
		out.LastScaleTime = later(out.LastScaleTime, m.status.LastScaleTime)
	}
	return out
}
