package controller

import (
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
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
	return &OwnWrites{cache: m}, nil
}

// Get returns the newer of the informer's copy of namespace/name and the
// last write of ours; the object is shared and must not be changed.
func (o *OwnWrites) Get(namespace, name string) (any, bool, error) {
	key := name
	if namespace != "" {
		key = namespace + "/" + name
	}
	return o.cache.GetByKey(key)
}

// Wrote records the object a create or update of ours returned.
func (o *OwnWrites) Wrote(obj runtime.Object) {
	o.cache.Mutation(obj)
}
