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
)

// supportedTolerationOperators are the operators a cluster toleration may
// use; empty means Equal.
var supportedTolerationOperators = []corev1.TolerationOperator{corev1.TolerationOpEqual, corev1.TolerationOpExists}

// validateClusterTolerations refuses the comparison operators Lt and Gt,
// which have no meaning for clusters, and nothing else, as Karmada does.
// Whatever else a toleration says is only compared with cluster taints: an
// unknown operator or effect tolerates nothing, and tolerationSeconds only
// counts for NoExecute taints.
func validateClusterTolerations(tolerations []corev1.Toleration, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i := range tolerations {
		if operator := tolerations[i].Operator; operator == corev1.TolerationOpLt || operator == corev1.TolerationOpGt {
			allErrs = append(allErrs, field.NotSupported(fldPath.Index(i).Child("operator"), operator, supportedTolerationOperators))
		}
	}
	return allErrs
}
