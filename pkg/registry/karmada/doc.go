// Package karmada describes how mco-apiserver serves the Karmada-compatible
// kinds: names, scope, validation, status subresources and table columns.
package karmada

import (
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/pkg/registry/resource"
)

// category groups every Karmada kind for `kubectl get karmada-io`.
const category = "karmada-io"

// Resources returns the specs of every Karmada-compatible resource served,
// with the default Options changed by opts.
func Resources(opts ...Option) []*resource.Spec {
	o := defaultOptions()
	for _, opt := range opts {
		opt(&o)
	}
	var out []*resource.Spec
	out = append(out, policyResources(o)...)
	out = append(out, workResources()...)
	out = append(out, clusterResources()...)
	out = append(out, configResources()...)
	out = append(out, appsResources()...)
	out = append(out, remedyResources()...)
	out = append(out, networkingResources()...)
	out = append(out, autoscalingResources()...)
	return out
}

// conditionStatus returns the status of a condition type, or "" when absent.
func conditionStatus(conds []metav1.Condition, condType string) string {
	if c := meta.FindStatusCondition(conds, condType); c != nil {
		return string(c.Status)
	}
	return ""
}
