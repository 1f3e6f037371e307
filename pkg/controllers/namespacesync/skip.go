package namespacesync

import (
	"fmt"
	"regexp"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// Namespaces reserved by Kubernetes and Karmada, never propagated.
const (
	karmadaSystem  = "karmada-system"
	karmadaCluster = "karmada-cluster"
	kubePrefix     = "kube-"
)

// Reserved tells whether a namespace belongs to Kubernetes or Karmada
// (default, kube-*, karmada-system, karmada-cluster, karmada-es-*) and so
// is never propagated, whatever the flags say.
func Reserved(name string) bool {
	return name == metav1.NamespaceDefault || name == karmadaSystem || name == karmadaCluster ||
		strings.HasPrefix(name, kubePrefix) || strings.HasPrefix(name, clusterv1alpha1.ExecutionSpacePrefix)
}

// CompileSkipped compiles the --skipped-propagating-namespaces expressions.
// Each must match a whole namespace name, as in Karmada: "team-.*" skips
// team-a but not my-team-a.
func CompileSkipped(exprs []string) ([]*regexp.Regexp, error) {
	out := make([]*regexp.Regexp, 0, len(exprs))
	for _, e := range exprs {
		_, err := regexp.Compile(e) // reports the error in the user's terms
		if err != nil {
			return nil, fmt.Errorf("--skipped-propagating-namespaces: %q is not a valid regular expression: %w", e, err)
		}
		re, err := regexp.Compile("^(?:" + e + ")$")
		if err != nil {
			return nil, fmt.Errorf("--skipped-propagating-namespaces: %q: %w", e, err)
		}
		out = append(out, re)
	}
	return out, nil
}

// Propagates tells whether a namespace on mco should exist in every member
// now: it exists and is not terminating, is not reserved, matches no
// skipped expression and is not labelled skip-auto-propagation.
func Propagates(ns *corev1.Namespace, skipped []*regexp.Regexp) bool {
	if ns == nil || ns.DeletionTimestamp != nil || Reserved(ns.Name) {
		return false
	}
	if strings.EqualFold(ns.Labels[policyv1alpha1.NamespaceSkipAutoPropagationLabel], "true") {
		return false
	}
	for _, re := range skipped {
		if re.MatchString(ns.Name) {
			return false
		}
	}
	return true
}
