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
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/names"
)

// Labels tie a Work to its FederatedResourceQuota, as Karmada labels them;
// mco has no garbage collector, so Works are listed by them.
const (
	NamespaceLabel = "federatedresourcequota.karmada.io/namespace"
	NameLabel      = "federatedresourcequota.karmada.io/name"
)

// Finalizer holds a FederatedResourceQuota until its Works are deleted.
const Finalizer = "policy.mco-org.github.io/federated-resource-quota"

// workKind names the quota's Works apart from those of a propagated
// ResourceQuota template of the same name.
const workKind = "FederatedResourceQuota"

// desiredWork is the Work carrying the ResourceQuota of one static
// assignment to its cluster: same name and namespace as the quota, the
// assignment's hard limits.
func desiredWork(q *policyv1alpha1.FederatedResourceQuota, a *policyv1alpha1.StaticClusterAssignment) (*workv1alpha1.Work, error) {
	rq := corev1.ResourceQuota{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ResourceQuota"},
		ObjectMeta: metav1.ObjectMeta{Name: q.Name, Namespace: q.Namespace},
		Spec:       corev1.ResourceQuotaSpec{Hard: corev1.ResourceList(a.Hard)},
	}
	raw, err := json.Marshal(manifestOf(&rq))
	if err != nil {
		return nil, fmt.Errorf("encode the ResourceQuota of %s/%s for %s: %w", q.Namespace, q.Name, a.ClusterName, err)
	}
	return &workv1alpha1.Work{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: names.ExecutionSpace(a.ClusterName),
			Name:      names.Work(workKind, q.Name, q.Namespace),
			Labels:    map[string]string{NamespaceLabel: q.Namespace, NameLabel: q.Name},
		},
		Spec: workv1alpha1.WorkSpec{
			Workload: workv1alpha1.WorkloadTemplate{Manifests: []workv1alpha1.Manifest{{RawExtension: runtime.RawExtension{Raw: raw}}}},
		},
	}, nil
}

// manifestOf keeps what a manifest should say: no empty metadata or status.
func manifestOf(rq *corev1.ResourceQuota) map[string]any {
	return map[string]any{
		"apiVersion": rq.APIVersion, "kind": rq.Kind,
		"metadata": map[string]any{"name": rq.Name, "namespace": rq.Namespace},
		"spec":     map[string]any{"hard": rq.Spec.Hard},
	}
}

// plan compares the Works a quota should have (one per static assignment;
// none while it is being deleted) with those it has. It returns the Works
// to create or update, sorted by cluster, and those to delete.
func plan(q *policyv1alpha1.FederatedResourceQuota, have []*workv1alpha1.Work) (want, stale []*workv1alpha1.Work, err error) {
	keep := map[string]bool{}
	if q.DeletionTimestamp == nil {
		for i := range q.Spec.StaticAssignments {
			w, err := desiredWork(q, &q.Spec.StaticAssignments[i])
			if err != nil {
				return nil, nil, err
			}
			want = append(want, w)
			keep[w.Namespace] = true
		}
	}
	sort.Slice(want, func(i, j int) bool { return want[i].Namespace < want[j].Namespace })
	for _, w := range have {
		if !keep[w.Namespace] {
			stale = append(stale, w)
		}
	}
	return want, stale, nil
}
