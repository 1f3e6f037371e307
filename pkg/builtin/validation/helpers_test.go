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

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/mco-org/mco/pkg/builtin/defaults"
	"github.com/mco-org/mco/pkg/testing/fielderr"
)

// Expected errors are (type, path) pairs; see package fielderr.
type wantErr = fielderr.Want

func fe(typ field.ErrorType, path string) wantErr { return fielderr.New(typ, path) }

// Shorthands for the error types, to keep the tables narrow.
var (
	required     = fielderr.Required
	invalid      = fielderr.Invalid
	notSupported = fielderr.NotSupported
	forbidden    = fielderr.Forbidden
	duplicate    = fielderr.Duplicate
	notFound     = fielderr.NotFound
)

// assertErrors compares the (type, path) pairs of errs with want, ignoring order.
func assertErrors(t *testing.T, errs field.ErrorList, want ...wantErr) {
	t.Helper()
	fielderr.Assert(t, errs, want...)
}

// testCase mutates a valid object and names the errors that follow.
type testCase[T any] struct {
	name   string
	mutate func(T)
	want   []wantErr
}

// runCases validates, for each case, a fresh valid object after mutation.
func runCases[T any](t *testing.T, valid func() T, validate func(T) field.ErrorList, cases []testCase[T]) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			obj := valid()
			tc.mutate(obj)
			assertErrors(t, validate(obj), tc.want...)
		})
	}
}

// updateCase mutates the new and the old version of a valid object.
type updateCase[T any] struct {
	name   string
	mutate func(obj, old T)
	want   []wantErr
}

// runUpdateCases validates, for each case, an update between two copies of a
// valid object, stored with resourceVersion 1, after mutation.
func runUpdateCases[T interface {
	metav1.Object
	DeepCopy() T
}](t *testing.T, valid func() T, validate func(T, T) field.ErrorList, cases []updateCase[T]) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			old := valid()
			old.SetResourceVersion("1")
			obj := old.DeepCopy()
			tc.mutate(obj, old)
			assertErrors(t, validate(obj, old), tc.want...)
		})
	}
}

func noChange[T any](T) {}

func noUpdate[T any](T, T) {}

func objectMeta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: "default"}
}

var webLabels = map[string]string{"app": "web"}

func webSelector() *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
}

// podTemplate is a small but complete pod template, not yet defaulted.
func podTemplate() corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web", "tier": "front"}},
		Spec: corev1.PodSpec{
			Volumes: []corev1.Volume{{Name: "config", VolumeSource: corev1.VolumeSource{
				ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "web-config"}}}}},
			Containers: []corev1.Container{{
				Name:  "web",
				Image: "nginx:1.27",
				Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 80}},
				Env:   []corev1.EnvVar{{Name: "MODE", Value: "prod"}},
				Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")},
					Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")},
				},
				VolumeMounts: []corev1.VolumeMount{{Name: "config", MountPath: "/etc/web"}},
			}},
		},
	}
}

func validDeployment() *appsv1.Deployment {
	d := &appsv1.Deployment{ObjectMeta: objectMeta("web"), Spec: appsv1.DeploymentSpec{Selector: webSelector(), Template: podTemplate()}}
	defaults.Deployment(d)
	return d
}

func validReplicaSet() *appsv1.ReplicaSet {
	rs := &appsv1.ReplicaSet{ObjectMeta: objectMeta("web"), Spec: appsv1.ReplicaSetSpec{Selector: webSelector(), Template: podTemplate()}}
	defaults.ReplicaSet(rs)
	return rs
}

func validDaemonSet() *appsv1.DaemonSet {
	ds := &appsv1.DaemonSet{ObjectMeta: objectMeta("web"), Spec: appsv1.DaemonSetSpec{Selector: webSelector(), Template: podTemplate()}}
	defaults.DaemonSet(ds)
	return ds
}

func claimSpec() corev1.PersistentVolumeClaimSpec {
	return corev1.PersistentVolumeClaimSpec{
		AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
		Resources:   corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}},
	}
}

func validStatefulSet() *appsv1.StatefulSet {
	ss := &appsv1.StatefulSet{ObjectMeta: objectMeta("db"), Spec: appsv1.StatefulSetSpec{
		Selector: webSelector(), Template: podTemplate(), ServiceName: "db",
		VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data"}, Spec: claimSpec()}},
	}}
	// The claim template is mounted like a volume.
	c := &ss.Spec.Template.Spec.Containers[0]
	c.VolumeMounts = append(c.VolumeMounts, corev1.VolumeMount{Name: "data", MountPath: "/var/lib/db"})
	defaults.StatefulSet(ss)
	return ss
}

func validJob() *batchv1.Job {
	j := &batchv1.Job{ObjectMeta: objectMeta("pi"), Spec: batchv1.JobSpec{Template: podTemplate()}}
	j.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyNever
	defaults.Job(j)
	return j
}
