package rollout

import (
	"fmt"
	"math"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
)

// Member is a cluster of the placement with the labels waves select by.
type Member struct {
	Name   string
	Labels map[string]string
}

// ResolveWaves puts each cluster of the placement into the first wave
// that names it, in the placement's order; clusters no wave names go with
// the last wave.
func ResolveWaves(spec []rolloutv1alpha1.Wave, placement []Member) ([]Wave, error) {
	if len(spec) == 0 {
		return nil, fmt.Errorf("the policy has no waves")
	}
	out := make([]Wave, len(spec))
	selectors := make([]labels.Selector, len(spec))
	for i, w := range spec {
		out[i] = Wave{Name: w.Name, Pause: w.Pause}
		if w.HealthyFor != nil {
			out[i].HealthyFor = w.HealthyFor.Duration
		}
		if w.LabelSelector != nil {
			s, err := metav1.LabelSelectorAsSelector(w.LabelSelector)
			if err != nil {
				return nil, fmt.Errorf("wave %s: %w", w.Name, err)
			}
			selectors[i] = s
		}
	}
	for _, m := range placement {
		i := waveOf(spec, selectors, m)
		out[i].Clusters = append(out[i].Clusters, m.Name)
	}
	for i, w := range spec {
		n, err := maxUnavailable(w.MaxUnavailableClusters, len(out[i].Clusters))
		if err != nil {
			return nil, fmt.Errorf("wave %s: %w", w.Name, err)
		}
		out[i].MaxUnavailable = n
	}
	return out, nil
}

// waveOf is the index of the wave a cluster belongs to.
func waveOf(spec []rolloutv1alpha1.Wave, selectors []labels.Selector, m Member) int {
	for i, w := range spec {
		if w.Rest {
			return i
		}
		for _, n := range w.ClusterNames {
			if n == m.Name {
				return i
			}
		}
		if selectors[i] != nil && selectors[i].Matches(labels.Set(m.Labels)) {
			return i
		}
	}
	return len(spec) - 1
}

// maxUnavailable resolves a wave's maxUnavailableClusters: a number, or a
// percentage of the wave rounded up; at least 1, every cluster when unset.
func maxUnavailable(v *intstr.IntOrString, clusters int) (int, error) {
	if v == nil {
		return int(math.Max(1, float64(clusters))), nil
	}
	n, err := intstr.GetScaledValueFromIntOrPercent(v, clusters, true)
	if err != nil {
		return 0, err
	}
	if n < 1 {
		n = 1
	}
	return n, nil
}
