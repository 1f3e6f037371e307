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
	"sort"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/testing/fielderr"
)

// fieldErr is the part of a field.Error the tests pin down: its type and path.
type fieldErr = fielderr.Want

var (
	required     = fielderr.Required
	invalid      = fielderr.Invalid
	notSupported = fielderr.NotSupported
	forbidden    = fielderr.Forbidden
	duplicate    = fielderr.Duplicate
	tooLong      = fielderr.TooLong
)

// expectErrors compares errs with want, ignoring order.
func expectErrors(t *testing.T, errs field.ErrorList, want []fieldErr) {
	t.Helper()
	fielderr.Assert(t, errs, want...)
}

// toFieldErrs keeps the type and path of each error, sorted.
func toFieldErrs(errs field.ErrorList) []fieldErr {
	out := make([]fieldErr, 0, len(errs))
	for _, err := range errs {
		out = append(out, fielderr.New(err.Type, err.Field))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

func ptrTo[T any](v T) *T { return &v }

func rawJSON(s string) policyv1alpha1.JSON { return policyv1alpha1.JSON{Raw: []byte(s)} }

// deploymentSelector selects one Deployment by name.
func deploymentSelector(namespace, name string) policyv1alpha1.ResourceSelector {
	return policyv1alpha1.ResourceSelector{APIVersion: "apps/v1", Kind: "Deployment", Namespace: namespace, Name: name}
}

// validPropagationSpec is a defaulted spec that passes validation; cases
// change one thing in a copy of it.
func validPropagationSpec(namespace string) policyv1alpha1.PropagationSpec {
	return policyv1alpha1.PropagationSpec{
		ResourceSelectors: []policyv1alpha1.ResourceSelector{deploymentSelector(namespace, "nginx")},
		Placement: policyv1alpha1.Placement{
			ClusterAffinity: &policyv1alpha1.ClusterAffinity{ClusterNames: []string{"member1", "member2"}},
		},
		Priority:           ptrTo[int32](0),
		Preemption:         policyv1alpha1.PreemptNever,
		ConflictResolution: policyv1alpha1.ConflictAbort,
		SchedulerName:      policyv1alpha1.DefaultSchedulerName,
	}
}

// newPropagationPolicy builds a valid PropagationPolicy in namespace
// "default" and applies the given edits.
func newPropagationPolicy(edits ...func(*policyv1alpha1.PropagationPolicy)) *policyv1alpha1.PropagationPolicy {
	policy := &policyv1alpha1.PropagationPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: "nginx-propagation", Namespace: "default"},
		Spec:       validPropagationSpec("default"),
	}
	for _, edit := range edits {
		edit(policy)
	}
	return policy
}

// newClusterPropagationPolicy builds a valid ClusterPropagationPolicy and
// applies the given edits.
func newClusterPropagationPolicy(edits ...func(*policyv1alpha1.ClusterPropagationPolicy)) *policyv1alpha1.ClusterPropagationPolicy {
	policy := &policyv1alpha1.ClusterPropagationPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: "nginx-propagation"},
		Spec:       validPropagationSpec(""),
	}
	for _, edit := range edits {
		edit(policy)
	}
	return policy
}
