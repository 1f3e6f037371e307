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

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

type ppEdit = func(*policyv1alpha1.PropagationPolicy)

func TestValidatePropagationPolicy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		edit ppEdit
		want []fieldErr
	}{
		{
			name: "A defaulted policy with one named selector is valid.",
			edit: func(*policyv1alpha1.PropagationPolicy) {},
		},
		{
			name: "A policy without a name is rejected.",
			edit: func(p *policyv1alpha1.PropagationPolicy) { p.Name = "" },
			want: []fieldErr{required("metadata.name")},
		},
		{
			name: "A policy name that is not a DNS subdomain is rejected.",
			edit: func(p *policyv1alpha1.PropagationPolicy) { p.Name = "Nginx_Policy" },
			want: []fieldErr{invalid("metadata.name")},
		},
		{
			name: "A namespaced policy without a namespace is rejected.",
			edit: func(p *policyv1alpha1.PropagationPolicy) {
				p.Namespace = ""
				p.Spec.ResourceSelectors[0].Namespace = ""
			},
			want: []fieldErr{required("metadata.namespace")},
		},
		{
			name: "A policy without resource selectors is rejected.",
			edit: func(p *policyv1alpha1.PropagationPolicy) { p.Spec.ResourceSelectors = nil },
			want: []fieldErr{required("spec.resourceSelectors")},
		},
		{
			name: "A selector without apiVersion and kind gets one error for each.",
			edit: func(p *policyv1alpha1.PropagationPolicy) {
				p.Spec.ResourceSelectors = append(p.Spec.ResourceSelectors, policyv1alpha1.ResourceSelector{Name: "web"})
			},
			want: []fieldErr{required("spec.resourceSelectors[1].apiVersion"), required("spec.resourceSelectors[1].kind")},
		},
		{
			name: "A selector with an empty namespace is valid because it inherits the policy's.",
			edit: func(p *policyv1alpha1.PropagationPolicy) { p.Spec.ResourceSelectors[0].Namespace = "" },
		},
		{
			name: "A selector naming another namespace is rejected.",
			edit: func(p *policyv1alpha1.PropagationPolicy) { p.Spec.ResourceSelectors[0].Namespace = "kube-system" },
			want: []fieldErr{invalid("spec.resourceSelectors[0].namespace")},
		},
		{
			name: "A selector whose label selector has a bad key is rejected.",
			edit: func(p *policyv1alpha1.PropagationPolicy) {
				p.Spec.ResourceSelectors[0].LabelSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"bad key": "x"}}
			},
			want: []fieldErr{invalid("spec.resourceSelectors[0].labelSelector.matchLabels")},
		},
		{
			name: "A selector whose label selector uses In without values is rejected.",
			edit: func(p *policyv1alpha1.PropagationPolicy) {
				p.Spec.ResourceSelectors[0].LabelSelector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
					{Key: "app", Operator: metav1.LabelSelectorOpIn},
				}}
			},
			want: []fieldErr{required("spec.resourceSelectors[0].labelSelector.matchExpressions[0].values")},
		},
		{
			name: "Preemption Always with every selector named is valid.",
			edit: func(p *policyv1alpha1.PropagationPolicy) { p.Spec.Preemption = policyv1alpha1.PreemptAlways },
		},
		{
			name: "Preemption Always with a selector that has no name is rejected.",
			edit: func(p *policyv1alpha1.PropagationPolicy) {
				p.Spec.Preemption = policyv1alpha1.PreemptAlways
				p.Spec.ResourceSelectors[0].Name = ""
			},
			want: []fieldErr{required("spec.resourceSelectors[0].name")},
		},
		{
			name: "An unknown preemption behaviour is rejected.",
			edit: func(p *policyv1alpha1.PropagationPolicy) { p.Spec.Preemption = "Sometimes" },
			want: []fieldErr{notSupported("spec.preemption")},
		},
		{
			name: "Empty preemption and conflict resolution are accepted because defaulting fills them.",
			edit: func(p *policyv1alpha1.PropagationPolicy) { p.Spec.Preemption = ""; p.Spec.ConflictResolution = "" },
		},
		{
			name: "Conflict resolution Overwrite is valid.",
			edit: func(p *policyv1alpha1.PropagationPolicy) {
				p.Spec.ConflictResolution = policyv1alpha1.ConflictOverwrite
			},
		},
		{
			name: "An unknown conflict resolution is rejected.",
			edit: func(p *policyv1alpha1.PropagationPolicy) { p.Spec.ConflictResolution = "Merge" },
			want: []fieldErr{notSupported("spec.conflictResolution")},
		},
		{
			name: "Activation preference Lazy is valid.",
			edit: func(p *policyv1alpha1.PropagationPolicy) { p.Spec.ActivationPreference = policyv1alpha1.LazyActivation },
		},
		{
			name: "An unknown activation preference is rejected.",
			edit: func(p *policyv1alpha1.PropagationPolicy) { p.Spec.ActivationPreference = "Eager" },
			want: []fieldErr{notSupported("spec.activationPreference")},
		},
		{
			name: "Application failover without propagateDeps is rejected.",
			edit: func(p *policyv1alpha1.PropagationPolicy) {
				p.Spec.Failover = &policyv1alpha1.FailoverBehavior{Application: defaultedApplicationFailover()}
			},
			want: []fieldErr{invalid("spec.propagateDeps")},
		},
		{
			name: "Cluster failover alone does not need propagateDeps.",
			edit: func(p *policyv1alpha1.PropagationPolicy) {
				p.Spec.Failover = &policyv1alpha1.FailoverBehavior{Cluster: &policyv1alpha1.ClusterFailoverBehavior{PurgeMode: policyv1alpha1.PurgeModeDirectly}}
			},
		},
		{
			name: "Suspending dispatch everywhere and on listed clusters at once is rejected.",
			edit: func(p *policyv1alpha1.PropagationPolicy) {
				p.Spec.Suspension = &policyv1alpha1.Suspension{
					Dispatching:           ptrTo(true),
					DispatchingOnClusters: &policyv1alpha1.SuspendClusters{ClusterNames: []string{"member1"}},
				}
			},
			want: []fieldErr{forbidden("spec.suspension.dispatchingOnClusters")},
		},
		{
			name: "Suspending dispatch on listed clusters with dispatching false is valid.",
			edit: func(p *policyv1alpha1.PropagationPolicy) {
				p.Spec.Suspension = &policyv1alpha1.Suspension{
					Dispatching:           ptrTo(false),
					DispatchingOnClusters: &policyv1alpha1.SuspendClusters{ClusterNames: []string{"member1"}},
				}
			},
		},
		{
			name: "Suspending dispatch everywhere with an empty cluster list is valid.",
			edit: func(p *policyv1alpha1.PropagationPolicy) {
				p.Spec.Suspension = &policyv1alpha1.Suspension{
					Dispatching:           ptrTo(true),
					DispatchingOnClusters: &policyv1alpha1.SuspendClusters{},
				}
			},
		},
		{
			name: "A schedule priority from a Kubernetes PriorityClass is valid.",
			edit: func(p *policyv1alpha1.PropagationPolicy) {
				p.Spec.SchedulePriority = &policyv1alpha1.SchedulePriority{
					PriorityClassSource: policyv1alpha1.KubePriorityClass, PriorityClassName: "high-priority",
				}
			},
		},
		{
			name: "A schedule priority from a source that is not implemented is rejected.",
			edit: func(p *policyv1alpha1.PropagationPolicy) {
				p.Spec.SchedulePriority = &policyv1alpha1.SchedulePriority{
					PriorityClassSource: policyv1alpha1.PodPriorityClass, PriorityClassName: "high-priority",
				}
			},
			want: []fieldErr{notSupported("spec.schedulePriority.priorityClassSource")},
		},
		{
			name: "A schedule priority without a source and with a bad class name gets two errors.",
			edit: func(p *policyv1alpha1.PropagationPolicy) {
				p.Spec.SchedulePriority = &policyv1alpha1.SchedulePriority{PriorityClassName: "High_Priority"}
			},
			want: []fieldErr{required("spec.schedulePriority.priorityClassSource"), invalid("spec.schedulePriority.priorityClassName")},
		},
		{
			name: "Dependent overrides name OverridePolicies; a name no object can have is rejected.",
			edit: func(p *policyv1alpha1.PropagationPolicy) {
				p.Spec.DependentOverrides = []string{"registry-mirror", "Not_A_Name"}
			},
			want: []fieldErr{invalid("spec.dependentOverrides[1]")},
		},
		{
			name: "Placement errors are reported under spec.placement.",
			edit: func(p *policyv1alpha1.PropagationPolicy) {
				p.Spec.Placement.ClusterAffinities = []policyv1alpha1.ClusterAffinityTerm{{AffinityName: "primary"}}
			},
			want: []fieldErr{forbidden("spec.placement.clusterAffinities")},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			expectErrors(t, ValidatePropagationPolicy(newPropagationPolicy(tc.edit)), tc.want)
		})
	}
}

func TestValidateClusterPropagationPolicy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		edit func(*policyv1alpha1.ClusterPropagationPolicy)
		want []fieldErr
	}{
		{
			name: "A defaulted cluster-wide policy is valid.",
			edit: func(*policyv1alpha1.ClusterPropagationPolicy) {},
		},
		{
			name: "A cluster-wide policy may select resources of any namespace.",
			edit: func(p *policyv1alpha1.ClusterPropagationPolicy) {
				p.Spec.ResourceSelectors = append(p.Spec.ResourceSelectors, deploymentSelector("team-a", "api"))
			},
		},
		{
			name: "A cluster-wide policy with a namespace is rejected.",
			edit: func(p *policyv1alpha1.ClusterPropagationPolicy) { p.Namespace = "default" },
			want: []fieldErr{forbidden("metadata.namespace")},
		},
		{
			name: "A cluster-wide policy without resource selectors is rejected.",
			edit: func(p *policyv1alpha1.ClusterPropagationPolicy) {
				p.Spec.ResourceSelectors = []policyv1alpha1.ResourceSelector{}
			},
			want: []fieldErr{required("spec.resourceSelectors")},
		},
		{
			name: "A cluster-wide policy with preemption Always needs named selectors too.",
			edit: func(p *policyv1alpha1.ClusterPropagationPolicy) {
				p.Spec.Preemption = policyv1alpha1.PreemptAlways
				p.Spec.ResourceSelectors = append(p.Spec.ResourceSelectors, policyv1alpha1.ResourceSelector{APIVersion: "v1", Kind: "ConfigMap"})
			},
			want: []fieldErr{required("spec.resourceSelectors[1].name")},
		},
		{
			name: "A cluster-wide policy with application failover and propagateDeps is valid.",
			edit: func(p *policyv1alpha1.ClusterPropagationPolicy) {
				p.Spec.PropagateDeps = true
				p.Spec.Failover = &policyv1alpha1.FailoverBehavior{Application: defaultedApplicationFailover()}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			expectErrors(t, ValidateClusterPropagationPolicy(newClusterPropagationPolicy(tc.edit)), tc.want)
		})
	}
}

func TestValidatePropagationPolicyUpdate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		edit ppEdit
		want []fieldErr
	}{
		{
			name: "Changing the placement is valid.",
			edit: func(p *policyv1alpha1.PropagationPolicy) {
				p.Spec.Placement.ClusterAffinity.ClusterNames = []string{"member3"}
			},
		},
		{
			name: "Changing the scheduler name is rejected, as in Karmada.",
			edit: func(p *policyv1alpha1.PropagationPolicy) { p.Spec.SchedulerName = "my-scheduler" },
			want: []fieldErr{invalid("spec.schedulerName")},
		},
		{
			name: "The create rules still apply.",
			edit: func(p *policyv1alpha1.PropagationPolicy) { p.Spec.ResourceSelectors = nil },
			want: []fieldErr{required("spec.resourceSelectors")},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			expectErrors(t, ValidatePropagationPolicyUpdate(newPropagationPolicy(tc.edit), newPropagationPolicy()), tc.want)
		})
	}
}

func TestValidateClusterPropagationPolicyUpdate(t *testing.T) {
	t.Parallel()
	renamed := newClusterPropagationPolicy(func(p *policyv1alpha1.ClusterPropagationPolicy) { p.Spec.SchedulerName = "my-scheduler" })
	expectErrors(t, ValidateClusterPropagationPolicyUpdate(renamed, newClusterPropagationPolicy()),
		[]fieldErr{invalid("spec.schedulerName")})
	expectErrors(t, ValidateClusterPropagationPolicyUpdate(newClusterPropagationPolicy(), newClusterPropagationPolicy()), nil)
}
