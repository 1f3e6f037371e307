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

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// Object builders for the verdict table: each applies one edit to a valid
// object and validates it as the apiserver would.

func verdictPP(edit ppEdit) field.ErrorList {
	return ValidatePropagationPolicy(newPropagationPolicy(edit))
}

func verdictFailover(edit func(*policyv1alpha1.FailoverBehavior)) field.ErrorList {
	return verdictPP(func(p *policyv1alpha1.PropagationPolicy) {
		p.Spec.PropagateDeps = true
		p.Spec.Failover = &policyv1alpha1.FailoverBehavior{Application: defaultedApplicationFailover()}
		edit(p.Spec.Failover)
	})
}

func verdictPlacement(edit func(*policyv1alpha1.Placement)) field.ErrorList {
	return verdictPP(func(p *policyv1alpha1.PropagationPolicy) { edit(&p.Spec.Placement) })
}

func verdictOverriders(o policyv1alpha1.Overriders) field.ErrorList {
	return ValidateOverridePolicy(newOverridePolicy(func(p *policyv1alpha1.OverridePolicy) {
		p.Spec.OverrideRules[0].Overriders = o
	}))
}

func verdictFieldExpr(key string, op corev1.NodeSelectorOperator, values ...string) field.ErrorList {
	return verdictPlacement(func(p *policyv1alpha1.Placement) {
		p.ClusterAffinity.FieldSelector = &policyv1alpha1.FieldSelector{
			MatchExpressions: []corev1.NodeSelectorRequirement{fieldExpr(key, op, values...)},
		}
	})
}

func verdictToleration(toleration corev1.Toleration) field.ErrorList {
	return verdictPlacement(func(p *policyv1alpha1.Placement) { p.ClusterTolerations = []corev1.Toleration{toleration} })
}

func verdictStaticWeight(entry policyv1alpha1.StaticClusterWeight) field.ErrorList {
	return verdictPlacement(func(p *policyv1alpha1.Placement) {
		p.ReplicaScheduling = &policyv1alpha1.ReplicaSchedulingStrategy{
			ReplicaSchedulingType:     policyv1alpha1.ReplicaSchedulingTypeDivided,
			ReplicaDivisionPreference: policyv1alpha1.ReplicaDivisionPreferenceWeighted,
			WeightPreference:          &policyv1alpha1.ClusterPreferences{StaticWeightList: []policyv1alpha1.StaticClusterWeight{entry}},
		}
	})
}

func verdictRules(rules ...policyv1alpha1.StatePreservationRule) field.ErrorList {
	return verdictFailover(func(f *policyv1alpha1.FailoverBehavior) {
		// Never nil: no rules at all means an empty list.
		f.Application.StatePreservation = &policyv1alpha1.StatePreservation{
			Rules: append([]policyv1alpha1.StatePreservationRule{}, rules...),
		}
	})
}

// TestKarmadaVerdicts lists cases checked against Karmada v1.19's webhook
// (pkg/util/validation/validation.go, pkg/webhook/*propagationpolicy) and
// CRD schema: karmada says whether Karmada accepts the object, mco whether
// mco does. They agree unless why says why mco deliberately differs. A
// refusal is a 422 naming field.
func TestKarmadaVerdicts(t *testing.T) {
	t.Parallel()
	const (
		ov  = "spec.overrideRules[0].overriders"
		pl  = "spec.placement"
		app = "spec.failover.application"
	)
	add, remove := policyv1alpha1.OverriderOpAdd, policyv1alpha1.OverriderOpRemove
	rule := func(jsonPath string) policyv1alpha1.StatePreservationRule {
		return policyv1alpha1.StatePreservationRule{AliasLabelName: "ready", JSONPath: jsonPath}
	}
	cases := []struct {
		name    string
		errs    field.ErrorList
		karmada bool
		mco     bool
		field   string
		why     string
	}{
		// 1. Karmada pairs operator and value only for fieldOverrider edits.
		{name: "Plaintext remove with a value", karmada: true, mco: true,
			errs: verdictOverriders(policyv1alpha1.Overriders{Plaintext: []policyv1alpha1.PlaintextOverrider{
				{Path: "/spec/replicas", Operator: remove, Value: rawJSON("1")}}})},
		{name: "Plaintext add without a value", karmada: true, mco: true,
			errs: verdictOverriders(policyv1alpha1.Overriders{Plaintext: []policyv1alpha1.PlaintextOverrider{
				{Path: "/spec/replicas", Operator: add}}})},
		{name: "Plaintext replace without a value", karmada: true, mco: true,
			errs: verdictOverriders(policyv1alpha1.Overriders{Plaintext: []policyv1alpha1.PlaintextOverrider{
				{Path: "/spec/replicas", Operator: policyv1alpha1.OverriderOpReplace}}})},
		{name: "Field overrider add without a value", karmada: false, mco: false, field: ov + ".fieldOverrider[0].json[0].value",
			errs: verdictOverriders(policyv1alpha1.Overriders{FieldOverrider: []policyv1alpha1.FieldOverrider{
				{FieldPath: "/data/config", JSON: []policyv1alpha1.JSONPatchOperation{{SubPath: "/a", Operator: add}}}}})},
		{name: "Plaintext with a path that is not a JSON pointer", karmada: true, mco: false, field: ov + ".plaintext[0].path",
			why: "such a patch can never apply; mco says so at once instead of on every apply",
			errs: verdictOverriders(policyv1alpha1.Overriders{Plaintext: []policyv1alpha1.PlaintextOverrider{
				{Path: "spec/replicas", Operator: remove}}})},

		// 2. Karmada parses the predicate path as a JSON pointer, and "" is one.
		{name: "Image predicate with an empty path", karmada: true, mco: true,
			errs: verdictOverriders(policyv1alpha1.Overriders{ImageOverrider: []policyv1alpha1.ImageOverrider{
				{Predicate: &policyv1alpha1.ImagePredicate{}, Component: policyv1alpha1.Tag, Operator: remove}}})},
		{name: "Image predicate with a relative path", karmada: false, mco: false, field: ov + ".imageOverrider[0].predicate.path",
			errs: verdictOverriders(policyv1alpha1.Overriders{ImageOverrider: []policyv1alpha1.ImageOverrider{
				{Predicate: &policyv1alpha1.ImagePredicate{Path: "spec/image"}, Component: policyv1alpha1.Tag, Operator: remove}}})},

		// 3. Karmada checks a field selector's key and operator, not its values.
		{name: "Field selector provider In without values", karmada: true, mco: true,
			errs: verdictFieldExpr("provider", corev1.NodeSelectorOpIn)},
		{name: "Field selector zone NotIn without values", karmada: true, mco: true,
			errs: verdictFieldExpr("zone", corev1.NodeSelectorOpNotIn)},
		{name: "Field selector with operator Exists", karmada: false, mco: false, field: pl + ".clusterAffinity.fieldSelector.matchExpressions[0].operator",
			errs: verdictFieldExpr("region", corev1.NodeSelectorOpExists)},
		{name: "Field selector with key name", karmada: false, mco: false, field: pl + ".clusterAffinity.fieldSelector.matchExpressions[0].key",
			errs: verdictFieldExpr("name", corev1.NodeSelectorOpIn, "member1")},

		// 4. targetCluster is required by the schema, but {} satisfies it.
		{name: "Static weight with an empty target cluster", karmada: true, mco: true,
			errs: verdictStaticWeight(policyv1alpha1.StaticClusterWeight{Weight: 1})},
		{name: "Static weight of zero", karmada: false, mco: false, field: pl + ".replicaScheduling.weightPreference.staticWeightList[0].weight",
			errs: verdictStaticWeight(policyv1alpha1.StaticClusterWeight{TargetCluster: names("member1")})},

		// 5. rules is required without a minimum; templates are not parsed.
		{name: "State preservation with an empty list of rules", karmada: true, mco: true,
			errs: verdictRules()},
		{name: "State preservation with a template that does not parse", karmada: true, mco: true,
			errs: verdictRules(rule("{.readyReplicas"))},
		{name: "State preservation without rules", karmada: false, mco: false, field: app + ".statePreservation.rules",
			errs: verdictFailover(func(f *policyv1alpha1.FailoverBehavior) {
				f.Application.StatePreservation = &policyv1alpha1.StatePreservation{}
			})},
		{name: "State preservation with an empty template", karmada: true, mco: false, field: app + ".statePreservation.rules[0].jsonPath",
			why:  `mco cannot tell "" from a missing jsonPath, which Karmada's schema refuses; it refuses both`,
			errs: verdictRules(rule(""))},

		// 6. Karmada refuses the comparison operators and nothing else.
		{name: "Toleration with operator Lt", karmada: false, mco: false, field: pl + ".clusterTolerations[0].operator",
			errs: verdictToleration(corev1.Toleration{Key: "sla", Operator: corev1.TolerationOpLt, Value: "9"})},
		{name: "Toleration with operator Gt", karmada: false, mco: false, field: pl + ".clusterTolerations[0].operator",
			errs: verdictToleration(corev1.Toleration{Key: "sla", Operator: corev1.TolerationOpGt, Value: "9"})},
		{name: "Toleration with Exists, a value and an unknown effect", karmada: true, mco: true,
			errs: verdictToleration(corev1.Toleration{Key: "gpu", Operator: corev1.TolerationOpExists, Value: "a", Effect: "NoRun"})},
		{name: "Toleration with a period on a NoSchedule effect", karmada: true, mco: true,
			errs: verdictToleration(corev1.Toleration{Key: "gpu", Effect: corev1.TaintEffectNoSchedule, TolerationSeconds: ptrTo[int64](5)})},

		// 7. Both policy webhooks refuse a new schedulerName on update.
		{name: "Update of a policy's scheduler name", karmada: false, mco: false, field: "spec.schedulerName",
			errs: ValidatePropagationPolicyUpdate(newPropagationPolicy(func(p *policyv1alpha1.PropagationPolicy) {
				p.Spec.SchedulerName = "my-scheduler"
			}), newPropagationPolicy())},
		{name: "Update of a cluster-wide policy's scheduler name", karmada: false, mco: false, field: "spec.schedulerName",
			errs: ValidateClusterPropagationPolicyUpdate(newClusterPropagationPolicy(func(p *policyv1alpha1.ClusterPropagationPolicy) {
				p.Spec.SchedulerName = "my-scheduler"
			}), newClusterPropagationPolicy())},
		{name: "Update of a policy's placement", karmada: true, mco: true,
			errs: ValidatePropagationPolicyUpdate(newPropagationPolicy(func(p *policyv1alpha1.PropagationPolicy) {
				p.Spec.Placement.ClusterAffinity.ClusterNames = []string{"member3"}
			}), newPropagationPolicy())},

		// 8. The purge mode enums: Directly, Gracefully, Never (application);
		// Directly, Gracefully (cluster).
		{name: "Application purge mode Immediately", karmada: false, mco: false, field: app + ".purgeMode",
			errs: verdictFailover(func(f *policyv1alpha1.FailoverBehavior) {
				f.Application.PurgeMode, f.Application.GracePeriodSeconds = "Immediately", nil
			})},
		{name: "Application purge mode Graciously", karmada: false, mco: false, field: app + ".purgeMode",
			errs: verdictFailover(func(f *policyv1alpha1.FailoverBehavior) {
				f.Application.PurgeMode, f.Application.GracePeriodSeconds = "Graciously", nil
			})},
		{name: "Application purge mode Never", karmada: true, mco: true,
			errs: verdictFailover(func(f *policyv1alpha1.FailoverBehavior) {
				f.Application.PurgeMode, f.Application.GracePeriodSeconds = policyv1alpha1.Never, nil
			})},
		{name: "Cluster purge mode Directly", karmada: true, mco: true,
			errs: verdictFailover(func(f *policyv1alpha1.FailoverBehavior) {
				f.Cluster = &policyv1alpha1.ClusterFailoverBehavior{PurgeMode: policyv1alpha1.PurgeModeDirectly}
			})},
		{name: "Cluster purge mode Never", karmada: false, mco: false, field: "spec.failover.cluster.purgeMode",
			errs: verdictFailover(func(f *policyv1alpha1.FailoverBehavior) {
				f.Cluster = &policyv1alpha1.ClusterFailoverBehavior{PurgeMode: policyv1alpha1.Never}
			})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if (tc.karmada != tc.mco) != (tc.why != "") {
				t.Fatalf("karmada %v, mco %v, why %q: a why is needed exactly when the verdicts differ", tc.karmada, tc.mco, tc.why)
			}
			if accepted := len(tc.errs) == 0; accepted != tc.mco {
				t.Fatalf("mco accepts: %v, want %v (errors: %v)", accepted, tc.mco, tc.errs)
			}
			for _, err := range tc.errs {
				if err.Field != tc.field {
					t.Errorf("error on %s, want it on %s: %v", err.Field, tc.field, err)
				}
			}
		})
	}
}
