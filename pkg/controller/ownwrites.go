package controller

import (
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// ownWritesTTL bounds how long a write of ours is remembered when the
// informer never shows it (a watch that resumed past it, say).
const ownWritesTTL = time.Minute

// OwnWrites is an informer's store seen together with the objects this
// process's own writes returned: a read gets the newer of the two. A
// controller that acts again before its informer has caught up with its
// last write then neither asks the server nor writes on a stale copy.
// Entries go as soon as the informer shows the same version or a newer one.
type OwnWrites struct {
	store cache.Store // the informer's
	cache cache.MutationCache
}

// NewOwnWrites remembers up to size writes over inf's store.
func NewOwnWrites(inf cache.SharedIndexInformer, size int) (*OwnWrites, error) {
	m := cache.NewIntegerResourceVersionMutationCacheWithOptions(klog.Background(), inf.GetStore(),
		cache.MutationCacheOptions{TTL: ownWritesTTL, IncludeAdds: true, MaxCacheSize: size})
	seen := func(obj any) {
		if o, ok := obj.(runtime.Object); ok {
			m.OnAddOrUpdate(o)
		}
	}
	_, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    seen,
		UpdateFunc: func(_, obj any) { seen(obj) },
		DeleteFunc: func(obj any) {
			if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = t.Obj
			}
			if o, ok := obj.(runtime.Object); ok {
				m.OnDelete(o)
			}
		},
	})
	if err != nil {
		return nil, fmt.Errorf("own writes: %w", err)
	}
	return &OwnWrites{store: inf.GetStore(), cache: m}, nil
}

// Get returns the newer of the informer's copy of namespace/name and the
// last write of ours; the object is shared and must not be changed.
func (o *OwnWrites) Get(namespace, name string) (any, bool, error) {
	key := name
	if namespace != "" {
		key = namespace + "/" + name
	}
	_, inStore, err := o.store.GetByKey(key)
	if err != nil {
		return nil, false, err
	}
	obj, ok, err := o.cache.GetByKey(key)
	if err == nil && ok && !inStore {
		// client-go's MutationCache hands out a created object the informer
		// has not shown yet only once, then forgets it: keep it for the
		// next read.
		o.cache.Mutation(obj)
	}
	return obj, ok, err
}

// OwnGet is Get typed: the object of namespace/name as a T, or a NotFound
// error for resource when there is none.
func OwnGet[T any](o *OwnWrites, resource schema.GroupResource, namespace, name string) (T, error) {
	var zero T
	obj, ok, err := o.Get(namespace, name)
	if err != nil {
		return zero, err
	}
	t, isT := obj.(T)
	if !ok || !isT {
		return zero, apierrors.NewNotFound(resource, name)
	}
	return t, nil
}

// Wrote records the object a create or update of ours returned.
func (o *OwnWrites) Wrote(obj runtime.Object) {
	o.cache.Mutation(obj)
}
