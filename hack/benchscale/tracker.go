package main

import (
	"context"
	"fmt"
	"math/bits"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/tools/cache"
)

// The kinds the benchmark propagates, as the tracker keys them.
var (
	deploymentsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	configMapsGVR  = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
)

// copyKey names one object on mco: its resource and name.
type copyKey struct {
	resource string
	name     string
}

// tracker follows, through a metadata informer per member and kind, which
// members hold a copy of each of the benchmark's objects: when an object
// was created on mco, when the last of the members it needs got it, and
// how many copies are left during the deletion.
type tracker struct {
	mu       sync.Mutex
	want     map[copyKey]int // members each object needs
	created  map[copyKey]time.Time
	holders  map[copyKey]uint64 // a bit per member (its index)
	complete map[copyKey]time.Time
	copies   int
}

// startTracker starts the informers and returns once each has listed; they
// stop with ctx.
func startTracker(ctx context.Context, members []metadata.Interface, ns string) (*tracker, error) {
	t := &tracker{want: map[copyKey]int{}, created: map[copyKey]time.Time{},
		holders: map[copyKey]uint64{}, complete: map[copyKey]time.Time{}}
	var synced []cache.InformerSynced
	for i, client := range members {
		factory := metadatainformer.NewFilteredSharedInformerFactory(client, 0, ns, func(o *metav1.ListOptions) {
			o.LabelSelector = benchLabel
		})
		for _, gvr := range []schema.GroupVersionResource{deploymentsGVR, configMapsGVR} {
			inf := factory.ForResource(gvr).Informer()
			// Only names are kept, not the objects.
			if err := inf.SetTransform(nameOnly); err != nil {
				return nil, err
			}
			_, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
				AddFunc: func(obj any) { t.add(i, gvr.Resource, obj) },
				DeleteFunc: func(obj any) {
					if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
						obj = d.Obj
					}
					t.remove(i, gvr.Resource, obj)
				},
			})
			if err != nil {
				return nil, fmt.Errorf("watch %s of member %d: %w", gvr.Resource, i+1, err)
			}
			synced = append(synced, inf.HasSynced)
		}
		factory.Start(ctx.Done())
	}
	syncCtx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if !cache.WaitForCacheSync(syncCtx.Done(), synced...) {
		return nil, fmt.Errorf("the members' informers did not list within a minute")
	}
	return t, nil
}

// nameOnly keeps an object's name and namespace.
func nameOnly(obj any) (any, error) {
	if m, ok := obj.(*metav1.PartialObjectMetadata); ok {
		return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: m.Name, Namespace: m.Namespace}}, nil
	}
	return obj, nil
}

func objectName(obj any) (string, bool) {
	m, ok := obj.(*metav1.PartialObjectMetadata)
	if !ok {
		return "", false
	}
	return m.Name, true
}

// expect records that an object was created on mco and how many members
// should get it.
func (t *tracker) expect(resource, name string, members int, at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	k := copyKey{resource, name}
	t.want[k], t.created[k] = members, at
	t.check(k, at)
}

func (t *tracker) add(member int, resource string, obj any) {
	name, ok := objectName(obj)
	if !ok {
		return
	}
	now := time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	k := copyKey{resource, name}
	if t.holders[k]&(1<<member) == 0 {
		t.holders[k] |= 1 << member
		t.copies++
	}
	t.check(k, now)
}

// check marks k complete the first time enough members hold it.
func (t *tracker) check(k copyKey, at time.Time) {
	want, ok := t.want[k]
	if !ok {
		return
	}
	if _, done := t.complete[k]; !done && bits.OnesCount64(t.holders[k]) >= want {
		t.complete[k] = at
	}
}

func (t *tracker) remove(member int, resource string, obj any) {
	name, ok := objectName(obj)
	if !ok {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	k := copyKey{resource, name}
	if t.holders[k]&(1<<member) != 0 {
		t.holders[k] &^= 1 << member
		t.copies--
	}
}

// progress is how many expected objects are complete, of how many.
func (t *tracker) progress() (done, expected int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.complete), len(t.want)
}

// left is how many copies the members hold.
func (t *tracker) left() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.copies
}

// latencies are, per object of a resource, the time from its create on
// mco to the last member it needs holding it, and when the last object
// was complete.
func (t *tracker) latencies(resource string) ([]time.Duration, time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []time.Duration
	var last time.Time
	for k, at := range t.complete {
		if k.resource != resource {
			continue
		}
		out = append(out, at.Sub(t.created[k]))
		if at.After(last) {
			last = at
		}
	}
	return out, last
}

// spread counts, per member index, the objects of a resource it holds.
func (t *tracker) spread(resource string, members int) []int {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]int, members)
	for k, h := range t.holders {
		if k.resource != resource {
			continue
		}
		for i := range out {
			if h&(1<<i) != 0 {
				out[i]++
			}
		}
	}
	return out
}
