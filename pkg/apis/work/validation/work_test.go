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
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

const deploymentJSON = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"nginx","namespace":"default"},"spec":{"replicas":2}}`

func rawManifest(s string) workv1alpha1.Manifest {
	return workv1alpha1.Manifest{RawExtension: runtime.RawExtension{Raw: []byte(s)}}
}

func validWork() *workv1alpha1.Work {
	return &workv1alpha1.Work{
		ObjectMeta: metav1.ObjectMeta{Namespace: "karmada-es-member1", Name: "nginx-687f7fb96f"},
		Spec: workv1alpha1.WorkSpec{Workload: workv1alpha1.WorkloadTemplate{Manifests: []workv1alpha1.Manifest{
			rawManifest(deploymentJSON),
			rawManifest(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cfg"},"data":{"k":"v"}}`),
		}}},
		Status: workv1alpha1.WorkStatus{
			Conditions: []metav1.Condition{{
				Type: workv1alpha1.WorkApplied, Status: metav1.ConditionTrue, Reason: "AppliedSuccessful",
				LastTransitionTime: metav1.NewTime(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)),
			}},
			ManifestStatuses: []workv1alpha1.ManifestStatus{{
				Identifier: workv1alpha1.ResourceIdentifier{Version: "v1", Kind: "Deployment", Name: "nginx"},
				Health:     workv1alpha1.ResourceHealthy,
			}},
		},
	}
}

func TestValidateWork(t *testing.T) {
	t.Parallel()
	const m = "spec.workload.manifests"
	setManifest := func(s string) func(*workv1alpha1.Work) {
		return func(w *workv1alpha1.Work) { w.Spec.Workload.Manifests[1] = rawManifest(s) }
	}
	cases := []struct {
		name   string
		mutate func(w *workv1alpha1.Work)
		want   []wantErr
	}{
		{name: "a work carrying a Deployment and a ConfigMap is valid", mutate: func(*workv1alpha1.Work) {}},
		{name: "a work without manifests is valid", mutate: func(w *workv1alpha1.Work) { w.Spec = workv1alpha1.WorkSpec{} }},
		{name: "a manifest held as a decoded object instead of raw JSON is valid", mutate: func(w *workv1alpha1.Work) {
			w.Spec.Workload.Manifests[1] = workv1alpha1.Manifest{RawExtension: runtime.RawExtension{Object: &unstructured.Unstructured{Object: map[string]interface{}{
				"apiVersion": "v1", "kind": "Service", "metadata": map[string]interface{}{"name": "svc"},
			}}}}
		}},
		{name: "a work without a namespace is rejected", mutate: func(w *workv1alpha1.Work) { w.Namespace = "" },
			want: []wantErr{fe(field.ErrorTypeRequired, "metadata.namespace")}},
		{name: "a work with an invalid name is rejected", mutate: func(w *workv1alpha1.Work) { w.Name = "Nginx!" },
			want: []wantErr{fe(field.ErrorTypeInvalid, "metadata.name")}},
		{name: "an empty manifest is required to hold an object", mutate: setManifest(""),
			want: []wantErr{fe(field.ErrorTypeRequired, m+"[1]")}},
		{name: "a manifest that is a JSON array is invalid", mutate: setManifest(`[1,2]`),
			want: []wantErr{fe(field.ErrorTypeInvalid, m+"[1]")}},
		{name: "a manifest that is JSON null is invalid", mutate: setManifest(`null`),
			want: []wantErr{fe(field.ErrorTypeInvalid, m+"[1]")}},
		{name: "a manifest that is not JSON at all is invalid", mutate: setManifest(`kind: Deployment`),
			want: []wantErr{fe(field.ErrorTypeInvalid, m+"[1]")}},
		{name: "a manifest without apiVersion is rejected", mutate: setManifest(`{"kind":"ConfigMap","metadata":{"name":"cfg"}}`),
			want: []wantErr{fe(field.ErrorTypeRequired, m+"[1].apiVersion")}},
		{name: "a manifest with an empty kind is rejected", mutate: setManifest(`{"apiVersion":"v1","kind":"","metadata":{"name":"cfg"}}`),
			want: []wantErr{fe(field.ErrorTypeRequired, m+"[1].kind")}},
		{name: "a manifest whose kind is not a string is rejected", mutate: setManifest(`{"apiVersion":"v1","kind":7,"metadata":{"name":"cfg"}}`),
			want: []wantErr{fe(field.ErrorTypeInvalid, m+"[1].kind")}},
		{name: "a manifest without metadata has no name", mutate: setManifest(`{"apiVersion":"v1","kind":"ConfigMap"}`),
			want: []wantErr{fe(field.ErrorTypeRequired, m+"[1].metadata.name")}},
		{name: "a manifest whose metadata is not an object is rejected", mutate: setManifest(`{"apiVersion":"v1","kind":"ConfigMap","metadata":"cfg"}`),
			want: []wantErr{fe(field.ErrorTypeInvalid, m+"[1].metadata")}},
		{name: "a manifest with only a generateName has no name", mutate: setManifest(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"generateName":"cfg-"}}`),
			want: []wantErr{fe(field.ErrorTypeRequired, m+"[1].metadata.name")}},
		{name: "a manifest status with an unknown health is not supported", mutate: func(w *workv1alpha1.Work) { w.Status.ManifestStatuses[0].Health = "Fine" },
			want: []wantErr{fe(field.ErrorTypeNotSupported, "status.manifestStatuses[0].health")}},
		{name: "a condition without a transition time is rejected", mutate: func(w *workv1alpha1.Work) { w.Status.Conditions[0].LastTransitionTime = metav1.Time{} },
			want: []wantErr{fe(field.ErrorTypeRequired, "status.conditions[0].lastTransitionTime")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := validWork()
			tc.mutate(w)
			assertErrors(t, ValidateWork(w), tc.want...)
		})
	}
}

func TestValidateWorkUpdate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		mutate func(w *workv1alpha1.Work)
		want   []wantErr
	}{
		{name: "replacing the manifests is allowed", mutate: func(w *workv1alpha1.Work) {
			w.Spec.Workload.Manifests = w.Spec.Workload.Manifests[:1]
		}},
		{name: "moving a work to another namespace is rejected", mutate: func(w *workv1alpha1.Work) { w.Namespace = "karmada-es-member2" },
			want: []wantErr{fe(field.ErrorTypeInvalid, "metadata.namespace")}},
		{name: "an updated work is held to the create rules", mutate: setFirstManifest(`{"kind":"Deployment","metadata":{"name":"x"}}`),
			want: []wantErr{fe(field.ErrorTypeRequired, "spec.workload.manifests[0].apiVersion")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			old := validWork()
			old.ResourceVersion = "3"
			updated := old.DeepCopy()
			tc.mutate(updated)
			assertErrors(t, ValidateWorkUpdate(updated, old), tc.want...)
		})
	}
}

func setFirstManifest(s string) func(*workv1alpha1.Work) {
	return func(w *workv1alpha1.Work) { w.Spec.Workload.Manifests[0] = rawManifest(s) }
}
