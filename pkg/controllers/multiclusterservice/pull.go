package multiclusterservice

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/mcs"
)

// reconcileProviderWorks gives every Pull provider of svc the Work that
// asks its agent to report the Service's slices (the agent reads nothing
// else of mco's MultiClusterServices), and deletes those no longer
// wanted: all of them when svc is nil.
func (m *Controller) reconcileProviderWorks(ctx context.Context, k key, svc *networkingv1alpha1.MultiClusterService, providers []string) error {
	want := map[string]*workv1alpha1.Work{}
	for _, p := range providers {
		if svc == nil || m.members.Reaches(p) {
			continue
		}
		w, err := mcs.ProviderWork(p, svc)
		if err != nil {
			return err
		}
		want[w.Namespace+"/"+w.Name] = w
	}
	existing, err := m.works.List(labels.SelectorFromSet(labels.Set{mcs.ProviderNamespaceLabel: k.Namespace, mcs.ProviderNameLabel: k.Name}))
	if err != nil {
		return err
	}
	for _, w := range existing {
		if _, ok := want[w.Namespace+"/"+w.Name]; ok || w.DeletionTimestamp != nil {
			continue
		}
		if err := m.mco.WorkV1alpha1().Works(w.Namespace).Delete(ctx, w.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("delete work %s/%s: %w", w.Namespace, w.Name, err)
		}
	}
	for _, w := range want {
		if _, err := m.writer.Ensure(ctx, w); err != nil {
			return err
		}
	}
	return nil
}
