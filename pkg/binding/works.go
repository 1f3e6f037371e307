package binding

import (
	"fmt"

	"k8s.io/client-go/tools/cache"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// worksIndex indexes Works by the permanent id of the binding they came
// from, so that finding a binding's Works does not walk every Work.
const worksIndex = "mco.binding-permanent-id"

// IndexWorks adds the index WorksOf reads to the Works informer; a second
// call is a no-op, so every controller that reads it may ask.
func IndexWorks(inf cache.SharedIndexInformer) error {
	if _, ok := inf.GetIndexer().GetIndexers()[worksIndex]; ok {
		return nil
	}
	if err := inf.AddIndexers(cache.Indexers{worksIndex: worksByBinding}); err != nil {
		return fmt.Errorf("index works by binding: %w", err)
	}
	return nil
}

func worksByBinding(obj any) ([]string, error) {
	w, ok := obj.(*workv1alpha1.Work)
	if !ok {
		return nil, nil
	}
	var out []string
	for _, label := range []string{workv1alpha2.ResourceBindingPermanentIDLabel, workv1alpha2.ClusterResourceBindingPermanentIDLabel} {
		if id := w.Labels[label]; id != "" {
			out = append(out, label+"="+id)
		}
	}
	return out, nil
}

// WorksOf returns the Works derived from a binding, from an informer
// indexed by IndexWorks (shared: do not modify).
func WorksOf(inf cache.SharedIndexInformer, v *View) ([]*workv1alpha1.Work, error) {
	id := v.PermanentID()
	if id == "" {
		return nil, nil
	}
	objs, err := inf.GetIndexer().ByIndex(worksIndex, v.Key.PermanentIDLabel()+"="+id)
	if err != nil {
		return nil, fmt.Errorf("works of %s: %w", v.Key, err)
	}
	out := make([]*workv1alpha1.Work, 0, len(objs))
	for _, obj := range objs {
		if w, ok := obj.(*workv1alpha1.Work); ok {
			out = append(out, w)
		}
	}
	return out, nil
}
