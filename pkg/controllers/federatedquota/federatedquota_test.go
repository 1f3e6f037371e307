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

package federatedquota

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

func rl(kv ...string) corev1.ResourceList {
	out := corev1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		out[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return out
}

func testQuota(clusters ...string) *policyv1alpha1.FederatedResourceQuota {
	q := &policyv1alpha1.FederatedResourceQuota{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "team"},
		Spec: policyv1alpha1.FederatedResourceQuotaSpec{Overall: policyv1alpha1.ResourceQuantities(rl("cpu", "2", "pods", "10"))}}
	for _, c := range clusters {
		q.Spec.StaticAssignments = append(q.Spec.StaticAssignments, policyv1alpha1.StaticClusterAssignment{ClusterName: c, Hard: policyv1alpha1.ResourceQuantities(rl("pods", "5"))})
	}
	return q
}

func TestPlan(t *testing.T) {
	t.Parallel()
	m1, _ := desiredWork(testQuota("member1"), &testQuota("member1").Spec.StaticAssignments[0])
	m2, _ := desiredWork(testQuota("member2"), &testQuota("member2").Spec.StaticAssignments[0])
	var manifest map[string]any
	if err := json.Unmarshal(m1.Spec.Workload.Manifests[0].Raw, &manifest); err != nil {
		t.Fatal(err)
	}
	wantManifest := map[string]any{"apiVersion": "v1", "kind": "ResourceQuota",
		"metadata": map[string]any{"name": "team", "namespace": "team-a"}, "spec": map[string]any{"hard": map[string]any{"pods": "5"}}}
	if diff := cmp.Diff(wantManifest, manifest); diff != "" {
		t.Errorf("manifest (-want +got):\n%s", diff)
	}
	if m1.Namespace != "karmada-es-member1" || m1.Labels[NameLabel] != "team" || m1.Labels[NamespaceLabel] != "team-a" {
		t.Errorf("work %s/%s labels %v", m1.Namespace, m1.Name, m1.Labels)
	}
	deleting := testQuota("member1")
	deleting.DeletionTimestamp = &metav1.Time{}
	tests := []struct {
		name       string
		q          *policyv1alpha1.FederatedResourceQuota
		have       []*workv1alpha1.Work
		want, gone []string
	}{
		{name: "new", q: testQuota("member2", "member1"), want: []string{"karmada-es-member1", "karmada-es-member2"}},
		{name: "an assignment removed", q: testQuota("member1"), have: []*workv1alpha1.Work{m1, m2},
			want: []string{"karmada-es-member1"}, gone: []string{"karmada-es-member2"}},
		{name: "being deleted", q: deleting, have: []*workv1alpha1.Work{m1}, gone: []string{"karmada-es-member1"}},
	}
	for _, tt := range tests {
		want, stale, err := plan(tt.q, tt.have)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, spaces(want)); diff != "" {
			t.Errorf("%s: want (-want +got):\n%s", tt.name, diff)
		}
		if diff := cmp.Diff(tt.gone, spaces(stale)); diff != "" {
			t.Errorf("%s: stale (-want +got):\n%s", tt.name, diff)
		}
	}
}

func spaces(ws []*workv1alpha1.Work) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Namespace)
	}
	return out
}

func TestDesiredStatus(t *testing.T) {
	t.Parallel()
	q := testQuota("member1")
	b := &workv1alpha2.ResourceBinding{Spec: workv1alpha2.ResourceBindingSpec{Replicas: 3,
		Clusters:            []workv1alpha2.TargetCluster{{Name: "member1", Replicas: 2}, {Name: "member3", Replicas: 1}},
		ReplicaRequirements: &workv1alpha2.ReplicaRequirements{ResourceRequest: rl("cpu", "250m")}}}
	gone := b.DeepCopy()
	gone.DeletionTimestamp = &metav1.Time{}
	w, _ := desiredWork(q, &q.Spec.StaticAssignments[0])
	w.Status.ManifestStatuses = []workv1alpha1.ManifestStatus{{Identifier: workv1alpha1.ResourceIdentifier{Kind: "ResourceQuota"},
		Status: &runtime.RawExtension{Raw: []byte(`{"hard":{"pods":"5"},"used":{"pods":"2"}}`)}}}
	unreported, _ := desiredWork(testQuota("member3"), &testQuota("member3").Spec.StaticAssignments[0])
	st := desiredStatus(q, []*workv1alpha2.ResourceBinding{b, gone}, []*workv1alpha1.Work{unreported, w})
	cpu, pods := st.OverallUsed["cpu"], st.OverallUsed["pods"]
	if cpu.String() != "750m" || pods.String() != "3" || st.Overall.Cpu().String() != "2" {
		t.Errorf("overall %v used %v", st.Overall, st.OverallUsed)
	}
	if len(st.AggregatedStatus) != 1 || st.AggregatedStatus[0].ClusterName != "member1" || st.AggregatedStatus[0].Used.Pods().String() != "2" {
		t.Errorf("aggregatedStatus %+v", st.AggregatedStatus)
	}
}
