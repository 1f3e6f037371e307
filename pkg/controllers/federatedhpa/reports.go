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
	"errors"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"

	"github.com/mco-org/mco/pkg/agent/access"
	registrymetrics "github.com/mco-org/mco/pkg/registry/metrics"
)

// reports reads the pods that Pull members' agents report with their
// metrics (a registrymetrics.Snapshot in each agent's ConfigMap on mco),
// decoding each report once: mco-controller-manager does not reach a Pull
// member, and the autoscaler needs its pods, not only their metrics.
type reports struct {
	configMaps corelisters.ConfigMapNamespaceLister
	now        func() time.Time

	mu      sync.Mutex
	decoded map[string]decodedReport
}

// decodedReport is a cluster's report as last decoded.
type decodedReport struct {
	resourceVersion string
	snapshot        *registrymetrics.Snapshot
	err             error
}

func newReports(configMaps corelisters.ConfigMapLister) *reports {
	return &reports{configMaps: configMaps.ConfigMaps(access.Namespace), now: time.Now, decoded: map[string]decodedReport{}}
}

// pods returns the pods a Pull cluster's agent reported, or why they
// cannot be counted (no report, too old, reported without its pods).
func (r *reports) pods(cluster string) ([]corev1.Pod, error) {
	if r == nil {
		return nil, errors.New("no reports are read")
	}
	name := access.MetricsConfigMapName(cluster)
	cm, err := r.configMaps.Get(name)
	if err != nil {
		r.mu.Lock()
		delete(r.decoded, cluster)
		r.mu.Unlock()
		return nil, fmt.Errorf("its mco-agent's report %s/%s: %w", access.Namespace, name, err)
	}
	r.mu.Lock()
	d, ok := r.decoded[cluster]
	if !ok || d.resourceVersion != cm.ResourceVersion {
		d.snapshot, d.err = registrymetrics.SnapshotOf(cm)
		d.resourceVersion = cm.ResourceVersion
		r.decoded[cluster] = d
	}
	r.mu.Unlock()
	if d.err != nil {
		return nil, d.err
	}
	if err := d.snapshot.Stale(r.now()); err != nil {
		return nil, err
	}
	switch s := d.snapshot; {
	case !s.PodObjectsReported && s.PodObjectsLeftOut != "":
		return nil, fmt.Errorf("its mco-agent reported no pods: %s", s.PodObjectsLeftOut)
	case !s.PodObjectsReported:
		return nil, errors.New("its mco-agent reports no pods (an mco-agent older than this controller)")
	default:
		return s.PodObjects, nil
	}
}
