package resource

import (
	"context"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/apps"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	deploymentstrategy "k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

func kubeDeploymentSpec() *Spec {
	return &Spec{
		Resource: schema.GroupResource{Group: "apps", Resource: "deployments"}, Kind: "Deployment", Version: "v1", Namespaced: true,
		New: func() runtime.Object { return &appsv1.Deployment{} }, NewList: func() runtime.Object { return &appsv1.DeploymentList{} },
		HasStatus: true,
		Kube: &KubeStrategy{Scheme: legacyscheme.Scheme, Internal: func() runtime.Object { return &apps.Deployment{} },
			Main: deploymentstrategy.Strategy, Status: deploymentstrategy.StatusStrategy},
	}
}

// kubeDeployment is a valid Deployment, defaulted as kube-apiserver
// defaults it on decoding.
func kubeDeployment(mutate func(*appsv1.Deployment)) *appsv1.Deployment {
	labels := map[string]string{"app": "web"}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "u1", ResourceVersion: "1"},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](2),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.27"}}},
			},
		},
	}
	if mutate != nil {
		mutate(d)
	}
	legacyscheme.Scheme.Default(d)
	return d
}

// TestKubeStrategyCreate: Kubernetes' deployment strategy, through mco's
// strategy, clears status, sets the generation, validates with its field
// paths and warns.
func TestKubeStrategyCreate(t *testing.T) {
	st := newStrategy(legacyscheme.Scheme, kubeDeploymentSpec())
	ctx := context.Background()
	cases := []struct {
		name     string
		mutate   func(*appsv1.Deployment)
		errs     []string // "path: type"
		warnings []string // substrings
	}{
		{name: "valid"},
		{name: "negative replicas", mutate: func(d *appsv1.Deployment) { d.Spec.Replicas = ptr.To[int32](-1) },
			errs: []string{"spec.replicas: " + string(field.ErrorTypeInvalid)}},
		{name: "selector not matching the template", mutate: func(d *appsv1.Deployment) { d.Spec.Template.Labels = map[string]string{"app": "other"} },
			errs: []string{"spec.template.metadata.labels: " + string(field.ErrorTypeInvalid)}},
		{name: "deprecated node label warns", mutate: func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.NodeSelector = map[string]string{"beta.kubernetes.io/arch": "amd64"}
		}, warnings: []string{"spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: deprecated"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := kubeDeployment(tc.mutate)
			d.Generation = 7
			d.Status.Replicas = 5
			st.PrepareForCreate(ctx, d)
			if d.Generation != 1 || d.Status.Replicas != 0 {
				t.Errorf("after PrepareForCreate generation %d, status.replicas %d; want 1 and 0", d.Generation, d.Status.Replicas)
			}
			var got []string
			for _, e := range st.Validate(ctx, d) {
				got = append(got, e.Field+": "+string(e.Type))
			}
			if strings.Join(got, ",") != strings.Join(tc.errs, ",") {
				t.Errorf("errors %v, want %v", got, tc.errs)
			}
			warnings := strings.Join(st.WarningsOnCreate(ctx, d), "\n")
			for _, w := range tc.warnings {
				if !strings.Contains(warnings, w) {
					t.Errorf("warnings %q lack %q", warnings, w)
				}
			}
			if len(tc.warnings) == 0 && warnings != "" {
				t.Errorf("unexpected warnings %q", warnings)
			}
		})
	}
}

// TestKubeStrategyUpdate: spec and annotation changes bump the generation
// and keep the status; status writes keep the spec and the generation;
// immutable fields are refused with Kubernetes' paths.
func TestKubeStrategyUpdate(t *testing.T) {
	spec := kubeDeploymentSpec()
	st := newStrategy(legacyscheme.Scheme, spec)
	status := statusStrategy{strategy: st}
	ctx := context.Background()
	old := kubeDeployment(nil)
	old.Generation, old.Status.Replicas = 3, 2

	scaled := old.DeepCopy()
	scaled.Spec.Replicas = ptr.To[int32](4)
	scaled.Status.Replicas = 9
	st.PrepareForUpdate(ctx, scaled, old)
	if scaled.Generation != 4 || scaled.Status.Replicas != 2 {
		t.Errorf("spec update: generation %d, status.replicas %d; want 4 and 2", scaled.Generation, scaled.Status.Replicas)
	}

	annotated := old.DeepCopy()
	annotated.Annotations = map[string]string{"a": "b"}
	st.PrepareForUpdate(ctx, annotated, old)
	if annotated.Generation != 4 {
		t.Errorf("annotation update: generation %d, want 4", annotated.Generation)
	}

	reported := old.DeepCopy()
	reported.Spec.Replicas = ptr.To[int32](8)
	reported.Status.ReadyReplicas = 2
	status.PrepareForUpdate(ctx, reported, old)
	if *reported.Spec.Replicas != 2 || reported.Status.ReadyReplicas != 2 || reported.Generation != 3 {
		t.Errorf("status update: replicas %d, ready %d, generation %d; want 2, 2, 3", *reported.Spec.Replicas, reported.Status.ReadyReplicas, reported.Generation)
	}
	reported.Status.ReadyReplicas = -1
	if errs := status.ValidateUpdate(ctx, reported, old); len(errs) == 0 || errs[0].Field != "status.readyReplicas" {
		t.Errorf("negative readyReplicas: %v", errs)
	}

	reselected := old.DeepCopy()
	reselected.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web", "tier": "x"}}
	reselected.Spec.Template.Labels = reselected.Spec.Selector.MatchLabels
	if errs := st.ValidateUpdate(ctx, reselected, old); len(errs) != 1 || errs[0].Field != "spec.selector" {
		t.Errorf("selector change: %v, want one error on spec.selector", errs)
	}
	if got := st.GetResetFields(); got["apps/v1"] == nil || !got["apps/v1"].Has(fieldpath.MakePathOrDie("status")) {
		t.Errorf("reset fields %v, want status of apps/v1", got)
	}
}
