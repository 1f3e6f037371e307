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
	"sort"

	corev1 "k8s.io/api/core/v1"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/quota"
)

// desiredStatus is a quota's status: the overall limit in force; what the
// namespace's bindings use as placed (replicas times per-replica
// requests, for the resources the limit names); and each member's
// ResourceQuota as it reports it, sorted by cluster.
func desiredStatus(q *policyv1alpha1.FederatedResourceQuota, bindings []*workv1alpha2.ResourceBinding,
	works []*workv1alpha1.Work) policyv1alpha1.FederatedResourceQuotaStatus {
	st := policyv1alpha1.FederatedResourceQuotaStatus{Overall: corev1.ResourceList(q.Spec.Overall.DeepCopy())}
	names := quota.Names(corev1.ResourceList(q.Spec.Overall))
	if len(names) > 0 {
		used := quota.Usage(&workv1alpha2.ResourceBindingSpec{}, nil, names)
		for _, b := range bindings {
			if b.DeletionTimestamp == nil {
				quota.Add(used, quota.Usage(&b.Spec, b.Spec.Clusters, names))
			}
		}
		st.OverallUsed = used
	}
	for _, w := range works {
		if cs, ok := clusterStatus(w); ok {
			st.AggregatedStatus = append(st.AggregatedStatus, cs)
		}
	}
	sort.Slice(st.AggregatedStatus, func(i, j int) bool {
		return st.AggregatedStatus[i].ClusterName < st.AggregatedStatus[j].ClusterName
	})
	return st
}

// clusterStatus reads the member ResourceQuota's status from its Work;
// false until the member has reported one.
func clusterStatus(w *workv1alpha1.Work) (policyv1alpha1.ClusterQuotaStatus, bool) {
	cluster, ok := names.ClusterOf(w.Namespace)
	if !ok {
		return policyv1alpha1.ClusterQuotaStatus{}, false
	}
	for _, ms := range w.Status.ManifestStatuses {
		if ms.Identifier.Kind != "ResourceQuota" || ms.Status == nil || len(ms.Status.Raw) == 0 {
			continue
		}
		var rqs corev1.ResourceQuotaStatus
		if err := json.Unmarshal(ms.Status.Raw, &rqs); err != nil {
			return policyv1alpha1.ClusterQuotaStatus{}, false
		}
		return policyv1alpha1.ClusterQuotaStatus{ClusterName: cluster, ResourceQuotaStatus: rqs}, true
	}
	return policyv1alpha1.ClusterQuotaStatus{}, false
}
