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
	"fmt"
	"sort"
	"strings"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/scale"

	registrymetrics "github.com/mco-org/mco/pkg/registry/metrics"
	"github.com/mco-org/mco/pkg/template"
	"github.com/mco-org/mco/pkg/workload"
)

// scales reads and writes the templates' scale subresource on mco — the
// template's replicas, which the scheduler divides among the members,
// shown to the autoscaler as the pods it counts (see Share) — and refuses
// a template whose replicas a HorizontalPodAutoscaler propagated to the
// members owns (it carries workload.RetainReplicasLabel): the two
// autoscalers would fight over it.
type scales struct {
	scale.ScalesGetter
	templates *template.Resources
	share     shareFunc
}

func (s scales) Scales(namespace string) scale.ScaleInterface {
	return guardedScale{ScaleInterface: s.ScalesGetter.Scales(namespace), templates: s.templates, share: s.share, namespace: namespace}
}

type guardedScale struct {
	scale.ScaleInterface
	templates *template.Resources
	share     shareFunc
	namespace string
}

// Get shows the template's replicas as counted pods, and records the share
// for Update; its selector keeps to the clusters the template goes to
// (a requirement on the cluster key, which the pod lister, mco's
// metrics.k8s.io and the members' metrics read as such), so that pods of
// the same labels in other members are not counted.
func (g guardedScale) Get(ctx context.Context, gr schema.GroupResource, name string, opts metav1.GetOptions) (*autoscalingv1.Scale, error) {
	if err := g.ownedByMemberHPA(gr, name); err != nil {
		return nil, err
	}
	s, err := g.ScaleInterface.Get(ctx, gr, name, opts)
	if err != nil || g.share == nil {
		return s, err
	}
	k, ok := g.kindOf(gr)
	if !ok {
		return s, nil
	}
	t := g.share(g.namespace, k.GVK, name)
	if t.share != 1 {
		s.Spec.Replicas = toCounted(s.Spec.Replicas, t.share)
		withShare(&s.ObjectMeta, t.share)
	}
	s.Status.Selector = inClusters(s.Status.Selector, t.clusters)
	return s, nil
}

// Update writes counted pods back as the template's replicas.
func (g guardedScale) Update(ctx context.Context, gr schema.GroupResource, s *autoscalingv1.Scale, opts metav1.UpdateOptions) (*autoscalingv1.Scale, error) {
	if err := g.ownedByMemberHPA(gr, s.Name); err != nil {
		return nil, err
	}
	s = s.DeepCopy()
	s.Spec.Replicas = toTemplate(s.Spec.Replicas, takeShare(&s.ObjectMeta))
	return g.ScaleInterface.Update(ctx, gr, s, opts)
}

func (g guardedScale) Patch(ctx context.Context, gvr schema.GroupVersionResource, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions) (*autoscalingv1.Scale, error) {
	if err := g.ownedByMemberHPA(gvr.GroupResource(), name); err != nil {
		return nil, err
	}
	return g.ScaleInterface.Patch(ctx, gvr, name, pt, data, opts)
}

// ownedByMemberHPA refuses a template that carries the retain-replicas
// label.
func (g guardedScale) ownedByMemberHPA(gr schema.GroupResource, name string) error {
	k, ok := g.kindOf(gr)
	if !ok {
		return nil
	}
	lister, ok := g.templates.Lister(k)
	if !ok {
		return nil
	}
	obj, err := lister.ByNamespace(g.namespace).Get(name)
	if apierrors.IsNotFound(err) || err != nil {
		return nil
	}
	if u, ok := obj.(*unstructured.Unstructured); ok && u.GetLabels()[workload.RetainReplicasLabel] == "true" {
		return fmt.Errorf("%s %s/%s is scaled in its members by a HorizontalPodAutoscaler propagated with it (it carries %s); a FederatedHPA and a member HorizontalPodAutoscaler must not both scale it: delete one of them",
			k.GVK.Kind, g.namespace, name, workload.RetainReplicasLabel)
	}
	return nil
}

// inClusters adds to a selector (in its string form) the requirement that
// the cluster be one of clusters; a selector that selects nothing, or no
// clusters known, stay as they are.
func inClusters(selector string, clusters []string) string {
	if selector == "" || len(clusters) == 0 {
		return selector
	}
	sorted := append([]string(nil), clusters...)
	sort.Strings(sorted)
	return selector + "," + registrymetrics.ClusterKey + " in (" + strings.Join(sorted, ",") + ")"
}

// kindOf is the template kind served as a resource.
func (g guardedScale) kindOf(gr schema.GroupResource) (template.Resource, bool) {
	for _, k := range g.templates.Kinds() {
		if k.GVR.GroupResource() == gr {
			return k, true
		}
	}
	return template.Resource{}, false
}
