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

package plugins

import (
	"maps"
	"sync"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/scheduler/framework"
)

// servedKey is where PreFilter leaves the binding's servedPass.
const servedKey framework.StateKey = APIEnablementName + "/served"

// servedCache remembers, per apiVersion and kind, whether each cluster
// object serves it. A real cluster lists dozens of group/versions, and
// scanning them for every binding touches a lot of scattered memory; the
// answer only changes when the cluster object is replaced.
//
// Answers are keyed by the cluster object itself, so that looking one up
// does not even read the object, and an updated cluster (a new object from
// the informer) is scanned again. Objects must not be changed in place, as
// the scheduler's input already requires. Only the latest object of each
// cluster name is kept.
type servedCache struct {
	mu    sync.Mutex
	kinds map[groupVersionKind]*servedIndex
}

type groupVersionKind struct{ groupVersion, kind string }

// servedIndex holds the answers for one kind: an immutable map read
// without locks during a pass, and the answers found since it was built,
// folded in at the start of the next pass.
type servedIndex struct {
	mu      sync.Mutex
	current map[*clusterv1alpha1.Cluster]bool
	latest  map[string]*clusterv1alpha1.Cluster // the object kept per name
	pending []servedEntry
}

type servedEntry struct {
	cluster *clusterv1alpha1.Cluster
	serves  bool
}

// servedPass is what one binding's pass reads and adds to.
type servedPass struct {
	current map[*clusterv1alpha1.Cluster]bool
	index   *servedIndex
}

// pass returns the answers known for the kind, folding in recent ones.
func (c *servedCache) pass(groupVersion, kind string) *servedPass {
	key := groupVersionKind{groupVersion, kind}
	c.mu.Lock()
	if c.kinds == nil {
		c.kinds = map[groupVersionKind]*servedIndex{}
	}
	x, ok := c.kinds[key]
	if !ok {
		x = &servedIndex{latest: map[string]*clusterv1alpha1.Cluster{}}
		c.kinds[key] = x
	}
	c.mu.Unlock()

	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.pending) > 0 {
		next := make(map[*clusterv1alpha1.Cluster]bool, len(x.current)+len(x.pending))
		maps.Copy(next, x.current)
		for _, e := range x.pending {
			if old := x.latest[e.cluster.Name]; old != nil && old != e.cluster {
				delete(next, old)
			}
			x.latest[e.cluster.Name] = e.cluster
			next[e.cluster] = e.serves
		}
		x.current, x.pending = next, nil
	}
	return &servedPass{current: x.current, index: x}
}

// serves answers from the pass's map, or scans and records the answer.
func (p *servedPass) serves(cluster *clusterv1alpha1.Cluster, groupVersion, kind string) bool {
	if serves, ok := p.current[cluster]; ok {
		return serves
	}
	serves := servesKind(cluster.Status.APIEnablements, groupVersion, kind)
	p.index.mu.Lock()
	p.index.pending = append(p.index.pending, servedEntry{cluster: cluster, serves: serves})
	p.index.mu.Unlock()
	return serves
}
