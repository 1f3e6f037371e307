package clusterstatus

import (
	"context"
	"encoding/json"
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/names"
)

// The API list of a member is refreshed as soon as a CRD mco propagated
// there is established, not only at the next periodic probe: the custom
// resources waiting for that kind are scheduled there within seconds.

// establishedKinds are the kinds of the CRDs a Work carries whose member
// copies report Established, in every version they serve.
func establishedKinds(w *workv1alpha1.Work) []schema.GroupVersionKind {
	var out []schema.GroupVersionKind
	for _, ms := range w.Status.ManifestStatuses {
		id := ms.Identifier
		if id.Group != apiextensionsv1.GroupName || id.Kind != "CustomResourceDefinition" || ms.Status == nil {
			continue
		}
		if id.Ordinal < 0 || id.Ordinal >= len(w.Spec.Workload.Manifests) {
			continue
		}
		var status apiextensionsv1.CustomResourceDefinitionStatus
		if err := json.Unmarshal(ms.Status.Raw, &status); err != nil || !crdEstablished(status) {
			continue
		}
		var crd apiextensionsv1.CustomResourceDefinition
		if err := json.Unmarshal(w.Spec.Workload.Manifests[id.Ordinal].Raw, &crd); err != nil {
			continue
		}
		for _, v := range crd.Spec.Versions {
			if v.Served {
				out = append(out, schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind})
			}
		}
	}
	return out
}

func crdEstablished(s apiextensionsv1.CustomResourceDefinitionStatus) bool {
	for _, c := range s.Conditions {
		if c.Type == apiextensionsv1.Established {
			return c.Status == apiextensionsv1.ConditionTrue
		}
	}
	return false
}

// unlisted are the kinds among want that a cluster's API list lacks.
func unlisted(enablements []clusterv1alpha1.APIEnablement, want []schema.GroupVersionKind) []schema.GroupVersionKind {
	listed := map[schema.GroupVersionKind]bool{}
	for _, e := range enablements {
		gv, err := schema.ParseGroupVersion(e.GroupVersion)
		if err != nil {
			continue
		}
		for _, r := range e.Resources {
			listed[gv.WithKind(r.Kind)] = true
		}
	}
	var out []schema.GroupVersionKind
	for _, k := range want {
		if !listed[k] {
			out = append(out, k)
		}
	}
	return out
}

// watchCRDWorks queues a cluster's API refresh when a Work there carries
// an established CRD.
func (s *Controller) watchCRDWorks(works cache.SharedIndexInformer) error {
	on := func(obj any) {
		w, ok := obj.(*workv1alpha1.Work)
		if !ok || len(establishedKinds(w)) == 0 {
			return
		}
		if cluster, ok := names.ClusterOf(w.Namespace); ok {
			s.apis.Enqueue(cluster)
		}
	}
	_, err := works.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: on, UpdateFunc: func(_, obj any) { on(obj) }})
	return err
}

// syncAPIs refreshes a cluster's API list when it lacks a kind of a CRD
// established there, and looks again (with backoff) until it is listed.
func (s *Controller) syncAPIs(ctx context.Context, name string) error {
	cached, err := s.clusters.Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if cached.DeletionTimestamp != nil || !s.members.Reaches(name) {
		return nil
	}
	works, err := s.works.Works(names.ExecutionSpace(name)).List(labels.Everything())
	if err != nil {
		return err
	}
	var want []schema.GroupVersionKind
	for _, w := range works {
		want = append(want, establishedKinds(w)...)
	}
	if len(unlisted(cached.Status.APIEnablements, want)) == 0 {
		return nil
	}
	clients, err := s.members.Get(name)
	if err != nil {
		return err
	}
	c := cached.DeepCopy()
	collectAPIs(clients, c)
	if !apiequality.Semantic.DeepEqual(c.Status, cached.Status) {
		if _, err := s.mco.ClusterV1alpha1().Clusters().UpdateStatus(ctx, c, metav1.UpdateOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("update API list of cluster %s: %w", name, err)
		}
	}
	if missing := unlisted(c.Status.APIEnablements, want); len(missing) > 0 {
		return controller.Retry("cluster %s does not list %v yet", name, missing)
	}
	return nil
}
