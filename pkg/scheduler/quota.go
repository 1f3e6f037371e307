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
	"fmt"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	policylisters "github.com/mco-org/mco/pkg/generated/listers/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/quota"
)

// ReasonQuotaExceeded is the Scheduled condition's reason when a placement
// would take its namespace past a FederatedResourceQuota's overall limit.
const ReasonQuotaExceeded = "FederatedResourceQuotaExceeded"

// quotaExceededError refuses a placement; the binding keeps the one it has.
type quotaExceededError struct{ message string }

func (e *quotaExceededError) Error() string { return e.message }

// quotaGuard enforces each namespace's FederatedResourceQuotas on the
// placements this scheduler writes: decisions in one namespace that has a
// quota are made one at a time, against the namespace's bindings as
// mco-apiserver has them (not a cache that may lag behind the last write).
type quotaGuard struct {
	quotas policylisters.FederatedResourceQuotaLister
	mu     sync.Mutex
	locks  map[string]*sync.Mutex
}

// lock serialises the decisions of a namespace with a quota; the returned
// function unlocks. Other namespaces get a no-op.
func (g *quotaGuard) lock(namespace string) func() {
	if namespace == "" || len(g.list(namespace)) == 0 {
		return func() {}
	}
	g.mu.Lock()
	l, ok := g.locks[namespace]
	if !ok {
		l = &sync.Mutex{}
		g.locks[namespace] = l
	}
	g.mu.Unlock()
	l.Lock()
	return l.Unlock
}

func (g *quotaGuard) list(namespace string) []*policyv1alpha1.FederatedResourceQuota {
	qs, err := g.quotas.FederatedResourceQuotas(namespace).List(labels.Everything())
	if err != nil {
		return nil
	}
	return qs
}

// check refuses a new placement of the binding that would take its
// namespace's use of a resource past an overall limit and above what it
// uses now. Lowering a limit never evicts: a placement that does not grow
// the use passes.
func (g *quotaGuard) check(ctx context.Context, client mcoclient.Interface, b *binding.View, clusters []workv1alpha2.TargetCluster) error {
	ns := b.Key.Namespace
	if ns == "" {
		return nil
	}
	quotas := g.list(ns)
	if len(quotas) == 0 {
		return nil
	}
	list, err := client.WorkV1alpha2().ResourceBindings(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("list the bindings of namespace %s for its quota: %w", ns, err)
	}
	var refusals []string
	for _, q := range quotas {
		names := quota.Names(corev1.ResourceList(q.Spec.Overall))
		before := quota.Usage(&workv1alpha2.ResourceBindingSpec{}, nil, names)
		for i := range list.Items {
			other := &list.Items[i]
			if other.Name != b.Key.Name && other.DeletionTimestamp == nil {
				quota.Add(before, quota.Usage(&other.Spec, other.Spec.Clusters, names))
			}
		}
		after := before.DeepCopy()
		quota.Add(before, quota.Usage(b.Spec, b.Spec.Clusters, names))
		quota.Add(after, quota.Usage(b.Spec, clusters, names))
		if excess := quota.Excess(before, after, corev1.ResourceList(q.Spec.Overall)); len(excess) > 0 {
			refusals = append(refusals, fmt.Sprintf("FederatedResourceQuota %s/%s: %s", ns, q.Name, strings.Join(excess, "; ")))
		}
	}
	if len(refusals) == 0 {
		return nil
	}
	return &quotaExceededError{message: "placement to " + describeTargets(clusters) + " refused: " + strings.Join(refusals, "; ") +
		"; the binding keeps its current placement"}
}

// quotaHandler queues a namespace's bindings when one of its quotas
// changes: a raised limit may let a refused placement through.
func (s *Scheduler) quotaHandler() cache.ResourceEventHandler {
	enqueue := func(obj any) {
		if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = t.Obj
		}
		if q, ok := obj.(*policyv1alpha1.FederatedResourceQuota); ok {
			s.enqueueRefused(q.Namespace, "")
		}
	}
	return cache.ResourceEventHandlerFuncs{AddFunc: enqueue, UpdateFunc: func(_, obj any) { enqueue(obj) }, DeleteFunc: enqueue}
}

// enqueueRefused queues the bindings of the namespace (but except) whose
// placement a quota refused.
func (s *Scheduler) enqueueRefused(namespace, except string) {
	if namespace == "" || len(s.quotas.list(namespace)) == 0 {
		return
	}
	rbs, _ := s.bindings.RB.ResourceBindings(namespace).List(labels.Everything())
	for _, rb := range rbs {
		if rb.Name == except {
			continue
		}
		if c := meta.FindStatusCondition(rb.Status.Conditions, workv1alpha2.Scheduled); c != nil && c.Reason == ReasonQuotaExceeded {
			s.loop.Enqueue(binding.Key{Namespace: rb.Namespace, Name: rb.Name})
		}
	}
}
