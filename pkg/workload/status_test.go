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

package workload

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

// memberDeploymentObject builds a Deployment as a member cluster holds it.
func memberDeploymentObject(t *testing.T, generation int64, templateGeneration string, status appsv1.DeploymentStatus) *unstructured.Unstructured {
	t.Helper()
	d := deployment(ptr[int32](3), podSpec())
	d.Generation = generation
	if templateGeneration != "" {
		d.Annotations = map[string]string{workv1alpha1.ResourceTemplateGenerationAnnotation: templateGeneration}
	}
	d.Status = status
	return object(t, "apps/v1", "Deployment", d)
}

func TestReflectStatus(t *testing.T) {
	t.Parallel()
	since := metav1.NewTime(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	available := appsv1.DeploymentCondition{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue,
		Reason: "MinimumReplicasAvailable", LastUpdateTime: since, LastTransitionTime: since}
	counters := appsv1.DeploymentStatus{
		ObservedGeneration: 6, Replicas: 4, UpdatedReplicas: 3, ReadyReplicas: 2, AvailableReplicas: 2,
		UnavailableReplicas: 2, CollisionCount: ptr[int32](1), Conditions: []appsv1.DeploymentCondition{available},
	}
	cases := []struct {
		name       string
		obj        func(t *testing.T) *unstructured.Unstructured
		deployment *DeploymentStatus // for Deployments: what must be recorded
		other      any               // for other kinds: the JSON document recorded
		wantNil    bool
		wantErr    bool
	}{
		{
			name: "A Deployment records its counters, generations, template generation and conditions, and nothing else of its status.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return memberDeploymentObject(t, 7, "4", counters)
			},
			deployment: &DeploymentStatus{
				Replicas: 4, UpdatedReplicas: 3, ReadyReplicas: 2, AvailableReplicas: 2, UnavailableReplicas: 2,
				ObservedGeneration: 6, Generation: 7, ResourceTemplateGeneration: 4, Conditions: []appsv1.DeploymentCondition{available},
			},
		},
		{
			name: "A Deployment without the template generation annotation records template generation 0.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return memberDeploymentObject(t, 2, "", appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 1})
			},
			deployment: &DeploymentStatus{Replicas: 1, ObservedGeneration: 2, Generation: 2},
		},
		{
			name: "A Deployment with a malformed template generation annotation records template generation 0.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return memberDeploymentObject(t, 2, "two", appsv1.DeploymentStatus{ObservedGeneration: 1})
			},
			deployment: &DeploymentStatus{ObservedGeneration: 1, Generation: 2},
		},
		{
			name: "A Deployment that has no status yet records its generations only.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return memberDeploymentObject(t, 1, "1", appsv1.DeploymentStatus{})
			},
			deployment: &DeploymentStatus{Generation: 1, ResourceTemplateGeneration: 1},
		},
		{
			name: "A Deployment whose status cannot be decoded is an error.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				u := memberDeploymentObject(t, 1, "1", appsv1.DeploymentStatus{})
				u.Object["status"] = map[string]any{"replicas": "three"}
				return u
			},
			wantErr: true,
		},
		{
			name: "A custom object records its status as it is.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				u := &unstructured.Unstructured{Object: map[string]any{
					"apiVersion": "example.com/v1", "kind": "Widget",
					"metadata": map[string]any{"name": "w"},
					"status":   map[string]any{"phase": "Ready", "count": int64(2)},
				}}
				return u
			},
			other: map[string]any{"phase": "Ready", "count": float64(2)},
		},
		{
			name: "An object without status records nothing.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				u := object(t, "v1", "ConfigMap", &corev1.ConfigMap{Data: map[string]string{"k": "v"}})
				delete(u.Object, "status")
				return u
			},
			wantNil: true,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			raw, err := ReflectStatus(tc.obj(t))
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			observed, health, observeErr := Observe(tc.obj(t))
			if (observeErr != nil) != tc.wantErr || !reflect.DeepEqual(observed, raw) || health != Health(tc.obj(t)) {
				t.Errorf("Observe = %v, %s, %v; want what ReflectStatus and Health give: %v, %s", observed, health, observeErr, raw, Health(tc.obj(t)))
			}
			if tc.wantErr {
				return
			}
			if tc.wantNil {
				if raw != nil {
					t.Fatalf("status = %s, want nil", raw.Raw)
				}
				return
			}
			if raw == nil {
				t.Fatal("status = nil, want a status")
			}
			if tc.deployment != nil {
				var got DeploymentStatus
				if err := json.Unmarshal(raw.Raw, &got); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(*tc.deployment, got); diff != "" {
					t.Errorf("status differs (-want +got):\n%s", diff)
				}
				var fields map[string]any
				if err := json.Unmarshal(raw.Raw, &fields); err != nil {
					t.Fatal(err)
				}
				if _, ok := fields["collisionCount"]; ok {
					t.Errorf("status %s carries collisionCount, which mco does not collect", raw.Raw)
				}
				return
			}
			var got any
			if err := json.Unmarshal(raw.Raw, &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.other, got); diff != "" {
				t.Errorf("status differs (-want +got):\n%s", diff)
			}
		})
	}
}
