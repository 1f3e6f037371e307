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
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// validSpec returns a scheduled binding spec that passes validation.
func validSpec() workv1alpha2.ResourceBindingSpec {
	return workv1alpha2.ResourceBindingSpec{
		Resource:   workv1alpha2.ObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "nginx"},
		Replicas:   3,
		Components: []workv1alpha2.Component{{Name: "main", Replicas: 3}},
		Clusters: []workv1alpha2.TargetCluster{
			{Name: "member1", Replicas: 2, Components: []workv1alpha2.TargetComponent{{Name: "main", Replicas: 2}}},
			{Name: "member2", Replicas: 1},
		},
		Placement: &policyv1alpha1.Placement{
			ClusterAffinity: &policyv1alpha1.ClusterAffinity{ClusterNames: []string{"member1", "member2"}},
		},
		GracefulEvictionTasks: []workv1alpha2.GracefulEvictionTask{{
			FromCluster: "member3", Reason: "TaintUntolerated", Producer: "taint-manager",
			PurgeMode: policyv1alpha1.PurgeModeGracefully, Replicas: new(int32(1)), GracePeriodSeconds: new(int32(600)),
			SuppressDeletion: new(false),
		}},
		RequiredBy:         []workv1alpha2.BindingSnapshot{{Namespace: "default", Name: "app-deployment", Clusters: []workv1alpha2.TargetCluster{{Name: "member1"}}}},
		ConflictResolution: policyv1alpha1.ConflictOverwrite,
	}
}

func validStatus() workv1alpha2.ResourceBindingStatus {
	return workv1alpha2.ResourceBindingStatus{
		SchedulerObservedGeneration: 2,
		Conditions: []metav1.Condition{{
			Type: workv1alpha2.Scheduled, Status: metav1.ConditionTrue, Reason: workv1alpha2.BindingReasonSuccess,
			LastTransitionTime: metav1.NewTime(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)),
		}},
		AggregatedStatus: []workv1alpha2.AggregatedStatusItem{{ClusterName: "member1", Applied: true, Health: workv1alpha2.ResourceHealthy}},
	}
}

func validRB() *workv1alpha2.ResourceBinding {
	return &workv1alpha2.ResourceBinding{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "nginx-deployment"},
		Spec:       validSpec(),
		Status:     validStatus(),
	}
}

func TestValidateResourceBinding(t *testing.T) {
	t.Parallel()
	const s = "spec."
	task := func(rb *workv1alpha2.ResourceBinding) *workv1alpha2.GracefulEvictionTask {
		return &rb.Spec.GracefulEvictionTasks[0]
	}
	cases := []struct {
		name   string
		mutate func(rb *workv1alpha2.ResourceBinding)
		want   []wantErr
	}{
		{name: "a fully populated binding is valid", mutate: func(*workv1alpha2.ResourceBinding) {}},
		{name: "an unscheduled binding with only its resource is valid", mutate: func(rb *workv1alpha2.ResourceBinding) {
			rb.Spec = workv1alpha2.ResourceBindingSpec{Resource: rb.Spec.Resource}
			rb.Status = workv1alpha2.ResourceBindingStatus{}
		}},
		{name: "the old purge mode spellings are rejected", mutate: func(rb *workv1alpha2.ResourceBinding) {
			task(rb).PurgeMode = "Graciously"
			rb.Spec.GracefulEvictionTasks = append(rb.Spec.GracefulEvictionTasks, *task(rb))
			rb.Spec.GracefulEvictionTasks[1].PurgeMode = "Immediately"
		}, want: []wantErr{
			fe(field.ErrorTypeNotSupported, s+"gracefulEvictionTasks[0].purgeMode"), fe(field.ErrorTypeNotSupported, s+"gracefulEvictionTasks[1].purgeMode"),
		}},
		{name: "a binding without a namespace is rejected", mutate: func(rb *workv1alpha2.ResourceBinding) { rb.Namespace = "" },
			want: []wantErr{fe(field.ErrorTypeRequired, "metadata.namespace")}},
		{name: "a name that is not a DNS subdomain is rejected", mutate: func(rb *workv1alpha2.ResourceBinding) { rb.Name = "Nginx_Deployment" },
			want: []wantErr{fe(field.ErrorTypeInvalid, "metadata.name")}},
		{name: "a resource without apiVersion, kind or name is rejected once per field", mutate: func(rb *workv1alpha2.ResourceBinding) {
			rb.Spec.Resource = workv1alpha2.ObjectReference{Namespace: "default"}
		}, want: []wantErr{
			fe(field.ErrorTypeRequired, s+"resource.apiVersion"), fe(field.ErrorTypeRequired, s+"resource.kind"), fe(field.ErrorTypeRequired, s+"resource.name"),
		}},
		{name: "negative replicas are rejected", mutate: func(rb *workv1alpha2.ResourceBinding) { rb.Spec.Replicas = -1 },
			want: []wantErr{fe(field.ErrorTypeInvalid, s+"replicas")}},
		{name: "a component without a name or with negative replicas is rejected", mutate: func(rb *workv1alpha2.ResourceBinding) {
			rb.Spec.Components = []workv1alpha2.Component{{Replicas: -1}}
		}, want: []wantErr{fe(field.ErrorTypeRequired, s+"components[0].name"), fe(field.ErrorTypeInvalid, s+"components[0].replicas")}},
		{name: "a component named twice is a duplicate", mutate: func(rb *workv1alpha2.ResourceBinding) {
			rb.Spec.Components = append(rb.Spec.Components, rb.Spec.Components[0])
		}, want: []wantErr{fe(field.ErrorTypeDuplicate, s+"components[1].name")}},
		{name: "a target cluster without a name is rejected", mutate: func(rb *workv1alpha2.ResourceBinding) { rb.Spec.Clusters[1].Name = "" },
			want: []wantErr{fe(field.ErrorTypeRequired, s+"clusters[1].name")}},
		{name: "a target cluster listed twice is a duplicate", mutate: func(rb *workv1alpha2.ResourceBinding) { rb.Spec.Clusters[1].Name = "member1" },
			want: []wantErr{fe(field.ErrorTypeDuplicate, s+"clusters[1].name")}},
		{name: "a target cluster with negative replicas is rejected", mutate: func(rb *workv1alpha2.ResourceBinding) { rb.Spec.Clusters[0].Replicas = -2 },
			want: []wantErr{fe(field.ErrorTypeInvalid, s+"clusters[0].replicas")}},
		{name: "a target cluster's components are checked like the binding's", mutate: func(rb *workv1alpha2.ResourceBinding) {
			rb.Spec.Clusters[0].Components = []workv1alpha2.TargetComponent{{Name: "main"}, {Name: "main", Replicas: -1}, {}}
		}, want: []wantErr{
			fe(field.ErrorTypeDuplicate, s+"clusters[0].components[1].name"), fe(field.ErrorTypeInvalid, s+"clusters[0].components[1].replicas"),
			fe(field.ErrorTypeRequired, s+"clusters[0].components[2].name"),
		}},
		{name: "the placement is checked by the policy rules", mutate: func(rb *workv1alpha2.ResourceBinding) {
			rb.Spec.Placement.ClusterAffinities = []policyv1alpha1.ClusterAffinityTerm{{AffinityName: "primary"}}
		}, want: []wantErr{fe(field.ErrorTypeForbidden, s+"placement.clusterAffinities")}},
		{name: "an eviction task without fromCluster, reason or producer is rejected", mutate: func(rb *workv1alpha2.ResourceBinding) {
			rb.Spec.GracefulEvictionTasks[0] = workv1alpha2.GracefulEvictionTask{}
		}, want: []wantErr{
			fe(field.ErrorTypeRequired, s+"gracefulEvictionTasks[0].fromCluster"), fe(field.ErrorTypeRequired, s+"gracefulEvictionTasks[0].reason"),
			fe(field.ErrorTypeRequired, s+"gracefulEvictionTasks[0].producer"),
		}},
		{name: "an eviction reason longer than 32 characters is too long", mutate: func(rb *workv1alpha2.ResourceBinding) {
			task(rb).Reason = strings.Repeat("R", 33)
		}, want: []wantErr{fe(field.ErrorTypeTooLong, s+"gracefulEvictionTasks[0].reason")}},
		{name: "an eviction reason that is not CamelCase-like is invalid", mutate: func(rb *workv1alpha2.ResourceBinding) { task(rb).Reason = "taint untolerated" },
			want: []wantErr{fe(field.ErrorTypeInvalid, s+"gracefulEvictionTasks[0].reason")}},
		{name: "an eviction message longer than 1024 characters is too long", mutate: func(rb *workv1alpha2.ResourceBinding) {
			task(rb).Message = strings.Repeat("m", 1025)
		}, want: []wantErr{fe(field.ErrorTypeTooLong, s+"gracefulEvictionTasks[0].message")}},
		{name: "an unknown purge mode is not supported", mutate: func(rb *workv1alpha2.ResourceBinding) { task(rb).PurgeMode = "Later" },
			want: []wantErr{fe(field.ErrorTypeNotSupported, s+"gracefulEvictionTasks[0].purgeMode")}},
		{name: "an eviction of negative replicas is rejected", mutate: func(rb *workv1alpha2.ResourceBinding) { task(rb).Replicas = new(int32(-1)) },
			want: []wantErr{fe(field.ErrorTypeInvalid, s+"gracefulEvictionTasks[0].replicas")}},
		{name: "a grace period of zero seconds is rejected", mutate: func(rb *workv1alpha2.ResourceBinding) { task(rb).GracePeriodSeconds = new(int32(0)) },
			want: []wantErr{fe(field.ErrorTypeInvalid, s+"gracefulEvictionTasks[0].gracePeriodSeconds")}},
		{name: "suppressing deletion together with a grace period is forbidden", mutate: func(rb *workv1alpha2.ResourceBinding) {
			task(rb).SuppressDeletion = new(true)
		}, want: []wantErr{fe(field.ErrorTypeForbidden, s+"gracefulEvictionTasks[0].suppressDeletion")}},
		{name: "suppressing deletion without a grace period is valid", mutate: func(rb *workv1alpha2.ResourceBinding) {
			task(rb).SuppressDeletion, task(rb).GracePeriodSeconds, task(rb).PurgeMode = new(true), nil, policyv1alpha1.Never
		}},
		{name: "a requiredBy entry without a name or with duplicate clusters is rejected", mutate: func(rb *workv1alpha2.ResourceBinding) {
			rb.Spec.RequiredBy[0].Name = ""
			rb.Spec.RequiredBy[0].Clusters = append(rb.Spec.RequiredBy[0].Clusters, rb.Spec.RequiredBy[0].Clusters[0])
		}, want: []wantErr{fe(field.ErrorTypeRequired, s+"requiredBy[0].name"), fe(field.ErrorTypeDuplicate, s+"requiredBy[0].clusters[1].name")}},
		{name: "an unknown conflict resolution is not supported", mutate: func(rb *workv1alpha2.ResourceBinding) { rb.Spec.ConflictResolution = "Replace" },
			want: []wantErr{fe(field.ErrorTypeNotSupported, s+"conflictResolution")}},
		{name: "status entries without a cluster name or with an unknown health are rejected", mutate: func(rb *workv1alpha2.ResourceBinding) {
			rb.Status.AggregatedStatus = append(rb.Status.AggregatedStatus, workv1alpha2.AggregatedStatusItem{Health: "Sick"})
		}, want: []wantErr{fe(field.ErrorTypeRequired, "status.aggregatedStatus[1].clusterName"), fe(field.ErrorTypeNotSupported, "status.aggregatedStatus[1].health")}},
		{name: "a condition without a reason is rejected", mutate: func(rb *workv1alpha2.ResourceBinding) { rb.Status.Conditions[0].Reason = "" },
			want: []wantErr{fe(field.ErrorTypeRequired, "status.conditions[0].reason")}},
		{name: "a negative scheduler observed generation is rejected", mutate: func(rb *workv1alpha2.ResourceBinding) { rb.Status.SchedulerObservedGeneration = -1 },
			want: []wantErr{fe(field.ErrorTypeInvalid, "status.schedulerObservedGeneration")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rb := validRB()
			tc.mutate(rb)
			assertErrors(t, ValidateResourceBinding(rb), tc.want...)
		})
	}
}

func TestValidateClusterResourceBinding(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		mutate func(crb *workv1alpha2.ClusterResourceBinding)
		want   []wantErr
	}{
		{name: "a cluster-scoped binding without a namespace is valid", mutate: func(*workv1alpha2.ClusterResourceBinding) {}},
		{name: "a namespace is forbidden on the cluster-scoped kind", mutate: func(crb *workv1alpha2.ClusterResourceBinding) { crb.Namespace = "default" },
			want: []wantErr{fe(field.ErrorTypeForbidden, "metadata.namespace")}},
		{name: "the shared spec rules apply to the cluster-scoped kind", mutate: func(crb *workv1alpha2.ClusterResourceBinding) { crb.Spec.Resource.Kind = "" },
			want: []wantErr{fe(field.ErrorTypeRequired, "spec.resource.kind")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			crb := &workv1alpha2.ClusterResourceBinding{ObjectMeta: metav1.ObjectMeta{Name: "nginx-clusterrole"}, Spec: validSpec(), Status: validStatus()}
			crb.Spec.Resource = workv1alpha2.ObjectReference{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRole", Name: "nginx"}
			tc.mutate(crb)
			assertErrors(t, ValidateClusterResourceBinding(crb), tc.want...)
		})
	}
}

func TestValidateBindingUpdates(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		validate func(newName string, replicas int32) field.ErrorList
		newName  string
		replicas int32
		want     []wantErr
	}{
		{name: "rescheduling a ResourceBinding is allowed", validate: updateRB, newName: "b", replicas: 5},
		{name: "renaming a ResourceBinding is rejected", validate: updateRB, newName: "c", replicas: 3,
			want: []wantErr{fe(field.ErrorTypeInvalid, "metadata.name")}},
		{name: "an updated ResourceBinding is held to the create rules", validate: updateRB, newName: "b", replicas: -1,
			want: []wantErr{fe(field.ErrorTypeInvalid, "spec.replicas")}},
		{name: "rescheduling a ClusterResourceBinding is allowed", validate: updateCRB, newName: "b", replicas: 5},
		{name: "renaming a ClusterResourceBinding is rejected", validate: updateCRB, newName: "c", replicas: 3,
			want: []wantErr{fe(field.ErrorTypeInvalid, "metadata.name")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assertErrors(t, tc.validate(tc.newName, tc.replicas), tc.want...)
		})
	}
}

func updateRB(newName string, replicas int32) field.ErrorList {
	old := validRB()
	old.Name, old.ResourceVersion = "b", "1"
	updated := old.DeepCopy()
	updated.Name, updated.Spec.Replicas = newName, replicas
	return ValidateResourceBindingUpdate(updated, old)
}

func updateCRB(newName string, replicas int32) field.ErrorList {
	old := &workv1alpha2.ClusterResourceBinding{ObjectMeta: metav1.ObjectMeta{Name: "b", ResourceVersion: "1"}, Spec: validSpec()}
	updated := old.DeepCopy()
	updated.Name, updated.Spec.Replicas = newName, replicas
	return ValidateClusterResourceBindingUpdate(updated, old)
}
