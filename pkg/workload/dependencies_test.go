package workload

import (
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

func TestDependencies(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		spec corev1.PodSpec
		want []Dependency
	}{
		{"a pod template without references has no dependency", corev1.PodSpec{Containers: []corev1.Container{{Name: "a"}}}, []Dependency{}},
		{"volumes, env, envFrom, pull secrets and the service account are all found, once each", corev1.PodSpec{
			ServiceAccountName: "runner",
			ImagePullSecrets:   []corev1.LocalObjectReference{{Name: "pull"}},
			Volumes: []corev1.Volume{
				{Name: "a", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "cfg"}}}},
				{Name: "b", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "tls"}}},
				{Name: "c", VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: "data"}}},
				{Name: "d", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: []corev1.VolumeProjection{
					{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "projected"}}}}}}},
			},
			InitContainers: []corev1.Container{{Name: "init", EnvFrom: []corev1.EnvFromSource{{SecretRef: &corev1.SecretEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "init-env"}}}}}},
			Containers: []corev1.Container{{Name: "app", Env: []corev1.EnvVar{
				{Name: "X", ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "cfg"}, Key: "x"}}},
			}}},
		}, []Dependency{
			{"ConfigMap", "shop", "cfg"}, {"ConfigMap", "shop", "projected"}, {"PersistentVolumeClaim", "shop", "data"},
			{"Secret", "shop", "init-env"}, {"Secret", "shop", "pull"}, {"Secret", "shop", "tls"}, {"ServiceAccount", "shop", "runner"},
		}},
		{"the default service account is not a dependency", corev1.PodSpec{ServiceAccountName: "default"}, []Dependency{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			d := &appsv1.Deployment{}
			d.Namespace, d.Name = "shop", "web"
			d.Spec.Template.Spec = c.spec
			got, err := Dependencies(object(t, "apps/v1", "Deployment", d))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}
