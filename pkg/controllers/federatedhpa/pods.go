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

package federatedhpa

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	coreinformers "k8s.io/client-go/informers/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	registrymetrics "github.com/mco-org/mco/pkg/registry/metrics"
)

// memberSyncWait bounds the wait for a member's pod cache the first time
// the autoscaler reads it.
const memberSyncWait = 5 * time.Second

// memberPods lists the pods of every counted member (a Ready Push member
// this process reaches, a Ready Pull member whose agent reports its pods),
// each named by podKey: the autoscaler's view of a workload's pods across
// members. A member that is not Ready (paused, unreachable) is left out,
// so its pods leave the calculation instead of counting as idle.
type memberPods struct {
	counting
}

var (
	_ corelisters.PodLister          = memberPods{}
	_ corelisters.PodNamespaceLister = memberPodsIn{}
)

func (m memberPods) List(selector labels.Selector) ([]*corev1.Pod, error) {
	return m.list(metav1.NamespaceAll, selector), nil
}

func (m memberPods) Pods(namespace string) corelisters.PodNamespaceLister {
	return memberPodsIn{m: m, namespace: namespace}
}

type memberPodsIn struct {
	m         memberPods
	namespace string
}

func (p memberPodsIn) List(selector labels.Selector) ([]*corev1.Pod, error) {
	return p.m.list(p.namespace, selector), nil
}

// Get finds a pod by its podKey.
func (p memberPodsIn) Get(name string) (*corev1.Pod, error) {
	for _, pod := range p.m.list(p.namespace, labels.Everything()) {
		if pod.Name == name {
			return pod, nil
		}
	}
	return nil, apierrors.NewNotFound(corev1.Resource("pods"), name)
}

// list lists the counted members' pods; requirements on the cluster key
// (registrymetrics.ClusterKey) choose the members.
func (m memberPods) list(namespace string, selector labels.Selector) []*corev1.Pod {
	clusters, err := m.clusters.List(labels.Everything())
	if err != nil {
		return nil
	}
	in, selector := registrymetrics.SplitByCluster(selector)
	var out []*corev1.Pod
	for _, c := range clusters {
		if !m.counted(c.Name) || !registrymetrics.ClusterMatches(in, c.Name) {
			continue
		}
		for _, p := range m.podsOf(c, namespace, selector) {
			cp := p.DeepCopy()
			cp.Name = podKey(p.Name, c.Name)
			// As mco's metrics.k8s.io labels its items: the autoscaler
			// matches its selector, cluster requirement included, on it.
			if cp.Labels == nil {
				cp.Labels = map[string]string{}
			}
			cp.Labels[registrymetrics.ClusterKey] = c.Name
			out = append(out, cp)
		}
	}
	return out
}

// podsOf lists the pods of one member in namespace ("" for all) that
// selector matches: a Push member's from this process's cache of them, a
// Pull member's from its agent's last report.
func (m memberPods) podsOf(c *clusterv1alpha1.Cluster, namespace string, selector labels.Selector) []*corev1.Pod {
	if c.Spec.SyncMode == clusterv1alpha1.Pull {
		reported, err := m.reports.pods(c.Name)
		if err != nil {
			klog.V(2).InfoS("Member left out of the autoscaler's pods", "cluster", c.Name, "err", err)
			return nil
		}
		var out []*corev1.Pod
		for i := range reported {
			p := &reported[i]
			if (namespace == "" || p.Namespace == namespace) && selector.Matches(labels.Set(p.Labels)) {
				out = append(out, p)
			}
		}
		return out
	}
	clients, err := m.members.Get(c.Name)
	if err != nil {
		klog.V(2).InfoS("Member left out of the autoscaler's pods", "cluster", c.Name, "err", err)
		return nil
	}
	inf := clients.Typed.Core().V1().Pods()
	informer := inf.Informer()
	clients.Start()
	if !informer.HasSynced() {
		ctx, cancel := context.WithTimeout(clients.Context(), memberSyncWait)
		synced := cache.WaitForCacheSync(ctx.Done(), informer.HasSynced)
		cancel()
		if !synced {
			return nil
		}
	}
	pods, err := inf.Lister().Pods(namespace).List(selector)
	if err != nil {
		return nil
	}
	return pods
}

func ready(c *clusterv1alpha1.Cluster) bool {
	cond := meta.FindStatusCondition(c.Status.Conditions, clusterv1alpha1.ClusterConditionReady)
	return cond != nil && cond.Status == metav1.ConditionTrue
}

// podInformer hands the autoscaler memberPods; its informer only says the
// members' caches are read on demand.
type podInformer struct{ lister memberPods }

var _ coreinformers.PodInformer = podInformer{}

func (p podInformer) Informer() cache.SharedIndexInformer { return alwaysSynced{} }
func (p podInformer) Lister() corelisters.PodLister       { return p.lister }

// alwaysSynced is an informer the autoscaler only asks whether it has
// synced; the members' pod caches behind memberPods are waited for when
// read.
type alwaysSynced struct{ cache.SharedIndexInformer }

func (alwaysSynced) HasSynced() bool { return true }
