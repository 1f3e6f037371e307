package multiclusterservice

import (
	"context"

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
	return m.keepWorks(ctx, labels.Set{mcs.ProviderNamespaceLabel: k.Namespace, mcs.ProviderNameLabel: k.Name}, want)
}
