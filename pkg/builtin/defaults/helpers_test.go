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

package defaults

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/diff"
	"k8s.io/utils/ptr"
)

// assertDefaulted runs fn over a copy of in, twice, and checks that the first
// run gives want and the second changes nothing.
func assertDefaulted[T interface{ DeepCopy() T }](t *testing.T, in, want T, fn func(T)) {
	t.Helper()
	got := in.DeepCopy()
	fn(got)
	if !apiequality.Semantic.DeepEqual(got, want) {
		t.Fatalf("defaulted object differs (-got +want):\n%s", diff.Diff(got, want))
	}
	again := got.DeepCopy()
	fn(again)
	if !apiequality.Semantic.DeepEqual(again, got) {
		t.Fatalf("defaulting twice changed the object (-once +twice):\n%s", diff.Diff(got, again))
	}
}

// bareTemplate is the smallest pod template a user writes.
func bareTemplate() corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx"}}},
	}
}

// defaultedTemplate is bareTemplate as a cluster stores it, with restartPolicy
// as given.
func defaultedTemplate(restart corev1.RestartPolicy) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{
				Name:                     "web",
				Image:                    "nginx",
				ImagePullPolicy:          corev1.PullAlways,
				TerminationMessagePath:   "/dev/termination-log",
				TerminationMessagePolicy: corev1.TerminationMessageReadFile,
			}},
			RestartPolicy:                 restart,
			TerminationGracePeriodSeconds: ptr.To[int64](30),
			DNSPolicy:                     corev1.DNSClusterFirst,
			SchedulerName:                 "default-scheduler",
			SecurityContext:               &corev1.PodSecurityContext{},
		},
	}
}

func objectMeta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: "default"}
}
