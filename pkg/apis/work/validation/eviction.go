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
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

const (
	// maxEvictionReasonLength and maxEvictionMessageLength are the CRD limits on a graceful
	// eviction task's reason and message.
	maxEvictionReasonLength  = 32
	maxEvictionMessageLength = 1024
)

// supportedPurgeModes lists every purge mode a task may carry, as in Karmada v1.19, which
// dropped the old spellings Immediately and Graciously.
var supportedPurgeModes = []string{
	string(policyv1alpha1.PurgeModeDirectly),
	string(policyv1alpha1.PurgeModeGracefully),
	string(policyv1alpha1.Never),
}

// validateEvictionTask checks one graceful eviction task.
func validateEvictionTask(task *workv1alpha2.GracefulEvictionTask, p *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if task.FromCluster == "" {
		allErrs = append(allErrs, field.Required(p.Child("fromCluster"), ""))
	}

	// The reason follows the rules of a condition reason, but with a shorter length limit.
	switch {
	case task.Reason == "":
		allErrs = append(allErrs, field.Required(p.Child("reason"), ""))
	case len(task.Reason) > maxEvictionReasonLength:
		allErrs = append(allErrs, field.TooLong(p.Child("reason"), task.Reason, maxEvictionReasonLength))
	default:
		for _, msg := range metav1validation.IsValidConditionReason(task.Reason) {
			allErrs = append(allErrs, field.Invalid(p.Child("reason"), task.Reason, msg))
		}
	}
	if len(task.Message) > maxEvictionMessageLength {
		allErrs = append(allErrs, field.TooLong(p.Child("message"), "", maxEvictionMessageLength))
	}
	if task.Producer == "" {
		allErrs = append(allErrs, field.Required(p.Child("producer"), ""))
	}

	switch task.PurgeMode {
	case "", policyv1alpha1.PurgeModeDirectly, policyv1alpha1.PurgeModeGracefully, policyv1alpha1.Never:
	default:
		allErrs = append(allErrs, field.NotSupported(p.Child("purgeMode"), task.PurgeMode, supportedPurgeModes))
	}

	if task.Replicas != nil {
		allErrs = append(allErrs, apivalidation.ValidateNonnegativeField(int64(*task.Replicas), p.Child("replicas"))...)
	}
	if task.GracePeriodSeconds != nil {
		if *task.GracePeriodSeconds <= 0 {
			allErrs = append(allErrs, field.Invalid(p.Child("gracePeriodSeconds"), *task.GracePeriodSeconds, "must be greater than 0"))
		}
		if task.SuppressDeletion != nil && *task.SuppressDeletion {
			allErrs = append(allErrs, field.Forbidden(p.Child("suppressDeletion"), "may not be true when gracePeriodSeconds is set"))
		}
	}
	return allErrs
}
