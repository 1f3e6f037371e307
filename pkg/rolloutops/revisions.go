package rolloutops

import (
	"fmt"
	"sort"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/labels"
	appslisters "k8s.io/client-go/listers/apps/v1"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
)

// Revisions lists a Rollout's ControllerRevisions, oldest first.
func Revisions(lister appslisters.ControllerRevisionLister, namespace, rollout string) ([]*appsv1.ControllerRevision, error) {
	list, err := lister.ControllerRevisions(namespace).List(labels.SelectorFromSet(labels.Set{rolloutv1alpha1.RolloutLabel: rollout}))
	if err != nil {
		return nil, fmt.Errorf("list revisions of rollout %s/%s: %w", namespace, rollout, err)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Revision < list[j].Revision })
	return list, nil
}
