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
	"fmt"
	"reflect"
	"sort"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// fieldErr is the part of a field.Error the tests pin down: its type and path.
type fieldErr struct {
	Type  field.ErrorType
	Field string
}

func (e fieldErr) String() string { return fmt.Sprintf("%s %s", e.Type, e.Field) }

func required(path string) fieldErr     { return fieldErr{field.ErrorTypeRequired, path} }
func invalid(path string) fieldErr      { return fieldErr{field.ErrorTypeInvalid, path} }
func notSupported(path string) fieldErr { return fieldErr{field.ErrorTypeNotSupported, path} }
func forbidden(path string) fieldErr    { return fieldErr{field.ErrorTypeForbidden, path} }
func duplicate(path string) fieldErr    { return fieldErr{field.ErrorTypeDuplicate, path} }
func tooLong(path string) fieldErr      { return fieldErr{field.ErrorTypeTooLong, path} }

// expectErrors compares errs with want, ignoring order.
func expectErrors(t *testing.T, errs field.ErrorList, want []fieldErr) {
	t.Helper()
	got := toFieldErrs(errs)
	expected := append([]fieldErr{}, want...)
	sortErrs(expected)
	if len(got) == 0 && len(expected) == 0 {
		return
	}
	if !reflect.DeepEqual(got, expected) {
		t.Errorf("errors differ\n got: %v\nwant: %v\nfull: %v", got, expected, errs)
	}
}

// toFieldErrs keeps the type and path of each error, sorted.
func toFieldErrs(errs field.ErrorList) []fieldErr {
	out := make([]fieldErr, 0, len(errs))
	for _, err := range errs {
		out = append(out, fieldErr{err.Type, err.Field})
	}
	sortErrs(out)
	return out
}

func sortErrs(errs []fieldErr) {
	sort.Slice(errs, func(i, j int) bool {
		if errs[i].Field != errs[j].Field {
			return errs[i].Field < errs[j].Field
		}
		return errs[i].Type < errs[j].Type
	})
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
