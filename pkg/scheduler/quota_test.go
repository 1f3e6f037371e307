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

package scheduler

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/generated/clientset/versioned/fake"
	policylisters "github.com/mco-org/mco/pkg/generated/listers/policy/v1alpha1"
)

func quotaBinding(name string, replicas int32, clusters ...workv1alpha2.TargetCluster) *workv1alpha2.ResourceBinding {
	return &workv1alpha2.ResourceBinding{
		ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: name},
		Spec: workv1alpha2.ResourceBindingSpec{Replicas: replicas, Clusters: clusters,
			ReplicaRequirements: &workv1alpha2.ReplicaRequirements{ResourceRequest: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m")}}},
	}
}

func TestQuotaGuardCheck(t *testing.T) {
	t.Parallel()
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	if err := indexer.Add(&policyv1alpha1.FederatedResourceQuota{ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "q"},
		Spec: policyv1alpha1.FederatedResourceQuotaSpec{Overall: policyv1alpha1.ResourceQuantities{corev1.ResourceCPU: resource.MustParse("1")}}}); err != nil {
		t.Fatal(err)
	}
	g := &quotaGuard{quotas: policylisters.NewFederatedResourceQuotaLister(indexer), locks: map[string]*sync.Mutex{}}
	other := quotaBinding("other", 2, workv1alpha2.TargetCluster{Name: "a", Replicas: 2}) // 400m
	mine := quotaBinding("mine", 2, workv1alpha2.TargetCluster{Name: "a", Replicas: 2})   // 400m
	client := fake.NewSimpleClientset(other, mine)
	view := &binding.View{Key: binding.Key{Namespace: "team", Name: "mine"}, Meta: &mine.ObjectMeta, Spec: &mine.Spec, Status: &mine.Status}
	tests := []struct {
		name     string
		clusters []workv1alpha2.TargetCluster
		wantErr  string
	}{
		{name: "fits: 3 x 200m + 400m", clusters: []workv1alpha2.TargetCluster{{Name: "a", Replicas: 3}}},
		{name: "past the limit: 4 x 200m + 400m", clusters: []workv1alpha2.TargetCluster{{Name: "a", Replicas: 2}, {Name: "b", Replicas: 2}},
			wantErr: "placement to a (2), b (2) refused: FederatedResourceQuota team/q: cpu: 1200m would be used (400m more), over the limit of 1"},
		{name: "shrinking", clusters: []workv1alpha2.TargetCluster{{Name: "a", Replicas: 1}}},
	}
	for _, tt := range tests {
		err := g.check(context.Background(), client, view, tt.clusters)
		var q *quotaExceededError
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.wantErr != "" && (!errors.As(err, &q) || !strings.HasPrefix(err.Error(), tt.wantErr)):
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.wantErr)
		}
	}
	// No quota in the namespace: nothing to check, no lock.
	free := &binding.View{Key: binding.Key{Namespace: "free", Name: "x"}, Meta: &metav1.ObjectMeta{}, Spec: &workv1alpha2.ResourceBindingSpec{}}
	if err := g.check(context.Background(), client, free, nil); err != nil {
		t.Errorf("namespace without quota: %v", err)
	}
	g.lock("free")()
}
