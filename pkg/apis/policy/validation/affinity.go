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
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// maxAffinityNameLength is the longest cluster group name Karmada accepts.
const maxAffinityNameLength = 32

// The field selector keys and operators Karmada accepts. pkg/placement's
// matcher accepts exactly the same; a test there checks that both agree.
var (
	// supportedClusterFields are the Cluster fields a field selector can match.
	supportedClusterFields = []string{"provider", "region", "zone"}
	// supportedFieldOperators are the operators a field selector can use.
	supportedFieldOperators = []corev1.NodeSelectorOperator{corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn}
)

// validateClusterAffinity checks the label and field selectors of a cluster
// filter. Cluster names are not checked: naming a missing cluster is allowed.
func validateClusterAffinity(affinity *policyv1alpha1.ClusterAffinity, fldPath *field.Path) field.ErrorList {
	allErrs := validateLabelSelector(affinity.LabelSelector, fldPath.Child("labelSelector"))
	return append(allErrs, validateFieldSelector(affinity.FieldSelector, fldPath.Child("fieldSelector"))...)
}

// validateFieldSelector allows only provider, region and zone, matched with
// In or NotIn. Values may be left out, as in Karmada (pkg/placement says
// what such an expression matches).
func validateFieldSelector(selector *policyv1alpha1.FieldSelector, fldPath *field.Path) field.ErrorList {
	if selector == nil {
		return nil
	}
	var allErrs field.ErrorList
	for i, expr := range selector.MatchExpressions {
		p := fldPath.Child("matchExpressions").Index(i)
		allErrs = append(allErrs, validateEnum(expr.Key, false, supportedClusterFields, p.Child("key"))...)
		allErrs = append(allErrs, validateEnum(expr.Operator, false, supportedFieldOperators, p.Child("operator"))...)
	}
	return allErrs
}

// validateAffinityName checks the name of a cluster group: 1 to 32
// characters, in label-key form.
func validateAffinityName(name string, fldPath *field.Path) field.ErrorList {
	if len(name) > maxAffinityNameLength {
		return field.ErrorList{field.TooLong(fldPath, name, maxAffinityNameLength)}
	}
	return validateQualifiedName(name, fldPath)
}

// isEmptyClusterAffinity tells whether a cluster filter sets nothing, which
// means "every cluster".
func isEmptyClusterAffinity(affinity *policyv1alpha1.ClusterAffinity) bool {
	return affinity.LabelSelector == nil && affinity.FieldSelector == nil &&
		len(affinity.ClusterNames) == 0 && len(affinity.ExcludeClusters) == 0
}
