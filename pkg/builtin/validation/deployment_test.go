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

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

func TestValidateDeployment(t *testing.T) {
	t.Parallel()
	const ru = "spec.strategy.rollingUpdate"
	rolling := func(unavailable, surge intstr.IntOrString) func(*appsv1.Deployment) {
		return func(d *appsv1.Deployment) {
			d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{MaxUnavailable: &unavailable, MaxSurge: &surge}
		}
	}
	runCases(t, validDeployment, ValidateDeployment, []testCase[*appsv1.Deployment]{
		{name: "A defaulted deployment is valid.", mutate: noChange[*appsv1.Deployment]},
		{name: "A deployment scaled to zero is valid.", mutate: func(d *appsv1.Deployment) { d.Spec.Replicas = ptr.To[int32](0) }},
		{name: "A Recreate deployment without rolling parameters is valid.", mutate: func(d *appsv1.Deployment) {
			d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
		}},
		{name: "A deployment without a name is rejected.", mutate: func(d *appsv1.Deployment) { d.Name = "" },
			want: []wantErr{required("metadata.name")}},
		{name: "A dotted deployment name is a valid DNS subdomain.", mutate: func(d *appsv1.Deployment) { d.Name = "web.v2" }},
		{name: "An upper-case deployment name is invalid.", mutate: func(d *appsv1.Deployment) { d.Name = "Web" },
			want: []wantErr{invalid("metadata.name")}},
		{name: "A deployment without a namespace is rejected.", mutate: func(d *appsv1.Deployment) { d.Namespace = "" },
			want: []wantErr{required("metadata.namespace")}},
		{name: "Bad labels and annotations on the deployment are reported at their maps.", mutate: func(d *appsv1.Deployment) {
			d.Labels = map[string]string{"app": strings.Repeat("x", 64)}
			d.Annotations = map[string]string{"-bad": "v"}
		}, want: []wantErr{invalid("metadata.labels"), invalid("metadata.annotations")}},
		{name: "Negative replicas are invalid.", mutate: func(d *appsv1.Deployment) { d.Spec.Replicas = ptr.To[int32](-1) },
			want: []wantErr{invalid("spec.replicas")}},
		{name: "A deployment without a selector is rejected.", mutate: func(d *appsv1.Deployment) { d.Spec.Selector = nil },
			want: []wantErr{required("spec.selector")}},
		{name: "An empty selector would select everything and is invalid.", mutate: func(d *appsv1.Deployment) {
			d.Spec.Selector = &metav1.LabelSelector{}
		}, want: []wantErr{invalid("spec.selector")}},
		{name: "A selector with a bad operator is invalid inside the selector.", mutate: func(d *appsv1.Deployment) {
			d.Spec.Selector.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: "app", Operator: "Like", Values: []string{"web"}}}
		}, want: []wantErr{invalid("spec.selector.matchExpressions[0].operator")}},
		{name: "A selector that does not match the template labels is reported at the labels.", mutate: func(d *appsv1.Deployment) {
			d.Spec.Selector.MatchLabels["app"] = "api"
		}, want: []wantErr{invalid("spec.template.metadata.labels")}},
		{name: "A selector with an In expression matching the template is valid.", mutate: func(d *appsv1.Deployment) {
			d.Spec.Selector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
				{Key: "tier", Operator: metav1.LabelSelectorOpIn, Values: []string{"front", "back"}}}}
		}},
		{name: "An unknown strategy type is not supported.", mutate: func(d *appsv1.Deployment) {
			d.Spec.Strategy = appsv1.DeploymentStrategy{Type: "BlueGreen"}
		}, want: []wantErr{notSupported("spec.strategy.type")}},
		{name: "A Recreate deployment may not have rolling parameters.", mutate: func(d *appsv1.Deployment) {
			d.Spec.Strategy.Type = appsv1.RecreateDeploymentStrategyType
		}, want: []wantErr{forbidden(ru)}},
		{name: "A RollingUpdate deployment needs its parameters.", mutate: func(d *appsv1.Deployment) {
			d.Spec.Strategy.RollingUpdate = nil
		}, want: []wantErr{required(ru)}},
		{name: "maxUnavailable 0 with a surge of 1 is valid.", mutate: rolling(intstr.FromInt32(0), intstr.FromInt32(1))},
		{name: "maxSurge above 100% is valid.", mutate: rolling(intstr.FromString("25%"), intstr.FromString("200%"))},
		{name: "maxUnavailable and maxSurge both 0 make no progress.", mutate: rolling(intstr.FromInt32(0), intstr.FromString("0%")),
			want: []wantErr{invalid(ru + ".maxUnavailable")}},
		{name: "Negative counts and malformed percentages are invalid.", mutate: rolling(intstr.FromInt32(-1), intstr.FromString("ten%")),
			want: []wantErr{invalid(ru + ".maxUnavailable"), invalid(ru + ".maxSurge")}},
		{name: "maxUnavailable above 100% is invalid.", mutate: rolling(intstr.FromString("101%"), intstr.FromInt32(1)),
			want: []wantErr{invalid(ru + ".maxUnavailable")}},
		{name: "Negative minReadySeconds and revisionHistoryLimit are invalid.", mutate: func(d *appsv1.Deployment) {
			d.Spec.MinReadySeconds = -1
			d.Spec.RevisionHistoryLimit = ptr.To[int32](-1)
		}, want: []wantErr{invalid("spec.minReadySeconds"), invalid("spec.revisionHistoryLimit")}},
		{name: "A negative progress deadline is invalid.", mutate: func(d *appsv1.Deployment) {
			d.Spec.ProgressDeadlineSeconds = ptr.To[int32](-1)
		}, want: []wantErr{invalid("spec.progressDeadlineSeconds")}},
		{name: "A progress deadline not above minReadySeconds is invalid.", mutate: func(d *appsv1.Deployment) {
			d.Spec.MinReadySeconds = 600
		}, want: []wantErr{invalid("spec.progressDeadlineSeconds")}},
	})
}

func TestValidateDeploymentUpdate(t *testing.T) {
	t.Parallel()
	runUpdateCases(t, validDeployment, ValidateDeploymentUpdate, []updateCase[*appsv1.Deployment]{
		{name: "An unchanged deployment is a valid update.", mutate: noUpdate[*appsv1.Deployment]},
		{name: "Scaling, a new image and new template labels matching the selector are valid.", mutate: func(d, _ *appsv1.Deployment) {
			d.Spec.Replicas = ptr.To[int32](5)
			ctr(d).Image = "nginx:1.28"
			d.Spec.Template.Labels["version"] = "2"
		}},
		{name: "Changing the selector is invalid because it is immutable.", mutate: func(d, _ *appsv1.Deployment) {
			d.Spec.Selector.MatchLabels["tier"] = "front"
		}, want: []wantErr{invalid("spec.selector")}},
		{name: "An update without a resourceVersion is invalid.", mutate: func(d, _ *appsv1.Deployment) { d.ResourceVersion = "" },
			want: []wantErr{invalid("metadata.resourceVersion")}},
		{name: "A rename is invalid.", mutate: func(d, _ *appsv1.Deployment) { d.Name = "web2" },
			want: []wantErr{invalid("metadata.name")}},
		{name: "The new object is validated in full.", mutate: func(d, _ *appsv1.Deployment) { d.Spec.Replicas = ptr.To[int32](-1) },
			want: []wantErr{invalid("spec.replicas")}},
	})
}

func TestValidateReplicaSet(t *testing.T) {
	t.Parallel()
	runCases(t, validReplicaSet, ValidateReplicaSet, []testCase[*appsv1.ReplicaSet]{
		{name: "A defaulted replicaset is valid.", mutate: noChange[*appsv1.ReplicaSet]},
		{name: "Negative replicas and minReadySeconds are invalid.", mutate: func(rs *appsv1.ReplicaSet) {
			rs.Spec.Replicas, rs.Spec.MinReadySeconds = ptr.To[int32](-1), -1
		}, want: []wantErr{invalid("spec.replicas"), invalid("spec.minReadySeconds")}},
		{name: "A replicaset without a selector is rejected.", mutate: func(rs *appsv1.ReplicaSet) { rs.Spec.Selector = nil },
			want: []wantErr{required("spec.selector")}},
		{name: "A replicaset whose pods would restart Never is not supported.", mutate: func(rs *appsv1.ReplicaSet) {
			rs.Spec.Template.Spec.RestartPolicy = "Never"
		}, want: []wantErr{notSupported("spec.template.spec.restartPolicy")}},
		{name: "A replicaset in no namespace is rejected.", mutate: func(rs *appsv1.ReplicaSet) { rs.Namespace = "" },
			want: []wantErr{required("metadata.namespace")}},
	})
}

func TestValidateReplicaSetUpdate(t *testing.T) {
	t.Parallel()
	runUpdateCases(t, validReplicaSet, ValidateReplicaSetUpdate, []updateCase[*appsv1.ReplicaSet]{
		{name: "Scaling a replicaset is a valid update.", mutate: func(rs, _ *appsv1.ReplicaSet) { rs.Spec.Replicas = ptr.To[int32](3) }},
		{name: "Changing a replicaset's selector is invalid.", mutate: func(rs, _ *appsv1.ReplicaSet) {
			rs.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"tier": "front"}}
		}, want: []wantErr{invalid("spec.selector")}},
	})
}
