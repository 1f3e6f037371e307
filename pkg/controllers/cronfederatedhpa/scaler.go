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

package cronfederatedhpa

import (
	"context"
	"fmt"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"

	autoscalingv1alpha1 "github.com/mco-org/mco/pkg/apis/autoscaling/v1alpha1"
	"github.com/mco-org/mco/pkg/apis/autoscaling/validation"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	autoscalinglisters "github.com/mco-org/mco/pkg/generated/listers/autoscaling/v1alpha1"
	"github.com/mco-org/mco/pkg/template"
)

// scaler carries out a rule on its target.
type scaler struct {
	mco       mcoclient.Interface
	dynamic   dynamic.Interface
	templates *template.Resources
	fhpas     autoscalinglisters.FederatedHPALister
}

// run carries out one rule of c now: a FederatedHPA gets the rule's
// bounds, a template the rule's replicas.
func (s *scaler) run(ctx context.Context, c *autoscalingv1alpha1.CronFederatedHPA, rule autoscalingv1alpha1.CronFederatedHPARule) Outcome {
	if validation.ScalesFederatedHPA(c) {
		err := retry.RetryOnConflict(retry.DefaultRetry, func() error { return s.bound(ctx, c.Namespace, c.Spec.ScaleTargetRef.Name, rule) })
		return Outcome{MinReplicas: rule.TargetMinReplicas, MaxReplicas: rule.TargetMaxReplicas, Err: err}
	}
	if rule.TargetReplicas == nil {
		return Outcome{Err: fmt.Errorf("rule %s sets no targetReplicas", rule.Name)}
	}
	if owner := s.autoscaledBy(c.Namespace, c.Spec.ScaleTargetRef); owner != "" {
		return Outcome{Err: fmt.Errorf("%s %s is scaled by FederatedHPA %s: point the CronFederatedHPA at the FederatedHPA (its targetMinReplicas and targetMaxReplicas) instead",
			c.Spec.ScaleTargetRef.Kind, c.Spec.ScaleTargetRef.Name, owner)}
	}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error { return s.scale(ctx, c.Namespace, c.Spec.ScaleTargetRef, *rule.TargetReplicas) })
	return Outcome{Replicas: rule.TargetReplicas, Err: err}
}

// bound sets a FederatedHPA's minReplicas and maxReplicas to those the
// rule gives.
func (s *scaler) bound(ctx context.Context, namespace, name string, rule autoscalingv1alpha1.CronFederatedHPARule) error {
	client := s.mco.AutoscalingV1alpha1().FederatedHPAs(namespace)
	fhpa, err := client.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("get FederatedHPA %s: %w", name, err)
	}
	changed := false
	if m := rule.TargetMinReplicas; m != nil && (fhpa.Spec.MinReplicas == nil || *fhpa.Spec.MinReplicas != *m) {
		fhpa.Spec.MinReplicas, changed = new(int32), true
		*fhpa.Spec.MinReplicas = *m
	}
	if m := rule.TargetMaxReplicas; m != nil && fhpa.Spec.MaxReplicas != *m {
		fhpa.Spec.MaxReplicas, changed = *m, true
	}
	if !changed {
		return nil
	}
	if _, err := client.Update(ctx, fhpa, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("update FederatedHPA %s: %w", name, err)
	}
	return nil
}

// scale sets a template's replicas through its scale subresource.
func (s *scaler) scale(ctx context.Context, namespace string, ref autoscalingv2.CrossVersionObjectReference, replicas int32) error {
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		return fmt.Errorf("scale target apiVersion %q: %w", ref.APIVersion, err)
	}
	kind, ok := s.templates.ByGroupKind(schema.GroupKind{Group: gv.Group, Kind: ref.Kind})
	if !ok {
		return fmt.Errorf("%s %s is not a kind mco serves as a template", ref.APIVersion, ref.Kind)
	}
	client := s.dynamic.Resource(kind.GVR).Namespace(namespace)
	scale, err := client.Get(ctx, ref.Name, metav1.GetOptions{}, "scale")
	if err != nil {
		return fmt.Errorf("get scale of %s %s: %w", ref.Kind, ref.Name, err)
	}
	current, _, _ := unstructured.NestedInt64(scale.Object, "spec", "replicas")
	if current == int64(replicas) {
		return nil
	}
	if err := unstructured.SetNestedField(scale.Object, int64(replicas), "spec", "replicas"); err != nil {
		return fmt.Errorf("set replicas of %s %s: %w", ref.Kind, ref.Name, err)
	}
	if _, err := client.Update(ctx, scale, metav1.UpdateOptions{}, "scale"); err != nil {
		return fmt.Errorf("scale %s %s to %d: %w", ref.Kind, ref.Name, replicas, err)
	}
	return nil
}

// autoscaledBy names the FederatedHPA that scales a template, if one does.
func (s *scaler) autoscaledBy(namespace string, ref autoscalingv2.CrossVersionObjectReference) string {
	list, _ := s.fhpas.FederatedHPAs(namespace).List(labels.Everything())
	for _, f := range list {
		t := f.Spec.ScaleTargetRef
		if t.Kind == ref.Kind && t.Name == ref.Name && sameGroup(t.APIVersion, ref.APIVersion) {
			return f.Name
		}
	}
	return ""
}

func sameGroup(a, b string) bool {
	ga, errA := schema.ParseGroupVersion(a)
	gb, errB := schema.ParseGroupVersion(b)
	return errA == nil && errB == nil && ga.Group == gb.Group
}
