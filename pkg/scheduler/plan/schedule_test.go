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

package plan_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/scheduler/core"
	"github.com/mco-org/mco/pkg/scheduler/plan"
)

// fleet returns the Clusters of testdata/fleet.yaml as objects in memory,
// as live Clusters would be given.
func fleet(t *testing.T) []*clusterv1alpha1.Cluster {
	t.Helper()
	docs, err := plan.ReadFiles(testdata("fleet.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]*clusterv1alpha1.Cluster, len(docs))
	for i, d := range docs {
		out[i] = d.Object.(*clusterv1alpha1.Cluster)
	}
	return out
}

// spreadBinding is a Duplicated binding that may go to one cluster only.
func spreadBinding() plan.Document {
	return plan.Document{Source: "in memory", Object: &workv1alpha2.ResourceBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "one", Namespace: "default"},
		Spec: workv1alpha2.ResourceBindingSpec{
			Resource: workv1alpha2.ObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "one"},
			Replicas: 2,
			Placement: &policyv1alpha1.Placement{
				SpreadConstraints: []policyv1alpha1.SpreadConstraint{{SpreadByField: policyv1alpha1.SpreadByFieldCluster, MaxGroups: 1, MinGroups: 1}},
				ReplicaScheduling: &policyv1alpha1.ReplicaSchedulingStrategy{ReplicaSchedulingType: policyv1alpha1.ReplicaSchedulingTypeDuplicated},
			},
		},
	}}
}

// twoTermsBinding wants us-east, then ap-south: neither has a ready cluster.
func twoTermsBinding() plan.Document {
	term := func(name, region string) policyv1alpha1.ClusterAffinityTerm {
		return policyv1alpha1.ClusterAffinityTerm{AffinityName: name, ClusterAffinity: policyv1alpha1.ClusterAffinity{
			FieldSelector: &policyv1alpha1.FieldSelector{MatchExpressions: []corev1.NodeSelectorRequirement{
				{Key: "region", Operator: corev1.NodeSelectorOpIn, Values: []string{region}}}}}}
	}
	return plan.Document{Source: "in memory", Object: &workv1alpha2.ResourceBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "two", Namespace: "default"},
		Spec: workv1alpha2.ResourceBindingSpec{
			Resource: workv1alpha2.ObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "two"},
			Replicas: 1,
			Placement: &policyv1alpha1.Placement{
				ClusterAffinities: []policyv1alpha1.ClusterAffinityTerm{term("us", "us-east"), term("ap", "ap-south")},
				ReplicaScheduling: &policyv1alpha1.ReplicaSchedulingStrategy{ReplicaSchedulingType: policyv1alpha1.ReplicaSchedulingTypeDuplicated},
			},
		},
	}}
}

const (
	affinityReason = "cluster(s) did not match the placement cluster affinity"
	taintReason    = "cluster(s) had untolerated taint {cluster.karmada.io/not-ready: }"
)

func TestScheduleExplainsExclusions(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name          string
		files         []string
		docs          []plan.Document
		want          plan.Placement
		unschedulable bool
	}{{
		name:  "A cluster a filter rejects is excluded with the first rejecting filter's reason and plugin",
		files: testdata("deployment.yaml", "policy.yaml"),
		want: plan.Placement{
			Clusters: []workv1alpha2.TargetCluster{{Name: "member-1", Replicas: 2}, {Name: "member-2", Replicas: 3}},
			Excluded: []plan.Exclusion{{Cluster: "member-3", Plugin: "TaintToleration", Reason: taintReason}},
			Replicas: 5,
		},
	}, {
		name:  "When nothing fits every cluster is excluded and the error is the scheduler's",
		files: testdata("unschedulable.yaml"),
		want: plan.Placement{
			Excluded: []plan.Exclusion{
				{Cluster: "member-1", Plugin: "ClusterAffinity", Reason: affinityReason},
				{Cluster: "member-2", Plugin: "ClusterAffinity", Reason: affinityReason},
				{Cluster: "member-3", Plugin: "TaintToleration", Reason: taintReason},
			},
			Replicas:      2,
			Unschedulable: "0/3 clusters are available: 1 " + taintReason + ", 2 " + affinityReason + ".",
		},
		unschedulable: true,
	}, {
		name:  "With clusterAffinities the reasons are those of the term used",
		files: testdata("affinities.yaml"),
		want: plan.Placement{
			Clusters:     []workv1alpha2.TargetCluster{{Name: "member-1", Replicas: 3}, {Name: "member-2", Replicas: 3}},
			Excluded:     []plan.Exclusion{{Cluster: "member-3", Plugin: "TaintToleration", Reason: taintReason}},
			AffinityName: "eu",
			Replicas:     3,
		},
	}, {
		name:  "A feasible cluster the aggregated division leaves out says so",
		files: testdata("aggregated.yaml"),
		want: plan.Placement{
			Clusters: []workv1alpha2.TargetCluster{{Name: "member-1", Replicas: 8}},
			Excluded: []plan.Exclusion{
				{Cluster: "member-2", Reason: "passed the filters; the replica division gave it no replicas"},
				{Cluster: "member-3", Plugin: "TaintToleration", Reason: taintReason},
			},
			Replicas: 8,
		},
	}, {
		name: "A feasible cluster spread selection leaves out says so",
		docs: []plan.Document{spreadBinding()},
		want: plan.Placement{
			Clusters: []workv1alpha2.TargetCluster{{Name: "member-1", Replicas: 2}},
			Excluded: []plan.Exclusion{
				{Cluster: "member-2", Reason: "passed the filters; left out by the spread constraints"},
				{Cluster: "member-3", Plugin: "TaintToleration", Reason: taintReason},
			},
			Replicas: 2,
		},
	}, {
		name: "When no clusterAffinities term fits, each cluster gets the reason of every term",
		docs: []plan.Document{twoTermsBinding()},
		want: plan.Placement{
			Excluded: []plan.Exclusion{
				{Cluster: "member-1", Plugin: "ClusterAffinity", Reason: `affinity "us": ` + affinityReason + `; affinity "ap": ` + affinityReason},
				{Cluster: "member-2", Plugin: "ClusterAffinity", Reason: `affinity "us": ` + affinityReason + `; affinity "ap": ` + affinityReason},
				{Cluster: "member-3", Plugin: "TaintToleration", Reason: `affinity "us": ` + taintReason + `; affinity "ap": ` + taintReason},
			},
			Replicas: 1,
			Unschedulable: `affinity "us": 0/3 clusters are available: 1 ` + taintReason + ", 2 " + affinityReason +
				`.; affinity "ap": 0/3 clusters are available: 1 ` + taintReason + ", 2 " + affinityReason + ".",
		},
		unschedulable: true,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			docs := tc.docs
			if len(tc.files) > 0 {
				var err error
				if docs, err = plan.ReadFiles(tc.files); err != nil {
					t.Fatal(err)
				}
			}
			var warn bytes.Buffer
			got, err := plan.Schedule(context.Background(), fleet(t), docs, &warn)
			var unsched *core.UnschedulableError
			if errors.As(err, &unsched) != tc.unschedulable || err != nil && unsched == nil {
				t.Fatalf("error %v, unschedulable want %v", err, tc.unschedulable)
			}
			if diff := cmp.Diff(tc.want, *got); diff != "" {
				t.Errorf("placement (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScheduleRefusesAClusterGivenTwice(t *testing.T) {
	t.Parallel()
	docs, err := plan.ReadFiles(testdata("fleet.yaml", "static-weights.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = plan.Schedule(context.Background(), fleet(t)[:1], docs, &bytes.Buffer{})
	want := `testdata/fleet.yaml: document 1: cluster "member-1" is already defined in the clusters given`
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
}

func TestScheduleLeavesTheDocumentsAsTheyAre(t *testing.T) {
	t.Parallel()
	doc := spreadBinding()
	before := doc.Object.DeepCopyObject()
	if _, err := plan.Schedule(context.Background(), fleet(t), []plan.Document{doc}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, doc.Object); diff != "" {
		t.Errorf("the document changed (-before +after):\n%s", diff)
	}
}
