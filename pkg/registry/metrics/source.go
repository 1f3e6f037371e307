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

// Package metrics serves metrics.k8s.io/v1beta1 on mco-apiserver: the
// PodMetrics and NodeMetrics of every member it reaches, read from each
// member's own metrics API (metrics-server there) when asked, each item
// labelled and annotated with the cluster it came from — so that
// `kubectl top pods -A` pointed at mco lists the pods of every member and
// `-l resource.karmada.io/query-from-cluster=member1` selects one.
package metrics

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apiserver/pkg/warning"
	metricsv1beta1client "k8s.io/metrics/pkg/client/clientset/versioned/typed/metrics/v1beta1"
)

// ClusterKey labels (and, as Karmada's metrics adapter does, annotates)
// each item with the cluster it came from.
const ClusterKey = "resource.karmada.io/query-from-cluster"

// Member is one member's metrics API.
type Member struct {
	Cluster string
	Client  metricsv1beta1client.MetricsV1beta1Interface
}

// Source hands out the members whose metrics are read now, and says why
// the others are left out (not Ready, in Pull mode, no credentials).
type Source interface {
	Members(ctx context.Context) (members []Member, leftOut []string, err error)
}

// SplitByCluster parts a selector into the requirements on ClusterKey,
// which mco evaluates on the cluster's name, and the rest, which the
// members evaluate on their objects.
func SplitByCluster(sel labels.Selector) (cluster labels.Selector, rest labels.Selector) {
	cluster, rest = labels.NewSelector(), labels.NewSelector()
	if sel == nil {
		return cluster, rest
	}
	reqs, _ := sel.Requirements()
	for _, r := range reqs {
		if r.Key() == ClusterKey {
			cluster = cluster.Add(r)
		} else {
			rest = rest.Add(r)
		}
	}
	return cluster, rest
}

// ClusterMatches tells whether a cluster passes the requirements on
// ClusterKey (a selector with none passes every cluster).
func ClusterMatches(cluster labels.Selector, name string) bool {
	return cluster.Matches(labels.Set{ClusterKey: name})
}

// fanOut calls read for each member that passes the cluster requirements,
// in parallel, and returns what they answered in the members' order;
// members that fail are left out with a warning, as are those the source
// leaves out.
func fanOut[T any](ctx context.Context, src Source, cluster labels.Selector, read func(ctx context.Context, m Member) (T, error)) ([]T, error) {
	members, leftOut, err := src.Members(ctx)
	if err != nil {
		return nil, err
	}
	for _, reason := range leftOut {
		warning.AddWarning(ctx, "", reason)
	}
	var chosen []Member
	for _, m := range members {
		if ClusterMatches(cluster, m.Cluster) {
			chosen = append(chosen, m)
		}
	}
	sort.Slice(chosen, func(i, j int) bool { return chosen[i].Cluster < chosen[j].Cluster })
	out := make([]T, len(chosen))
	errs := make([]error, len(chosen))
	var wg sync.WaitGroup
	for i, m := range chosen {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = read(ctx, m)
		}()
	}
	wg.Wait()
	var answered []T
	for i, err := range errs {
		if err != nil {
			warning.AddWarning(ctx, "", fmt.Sprintf("metrics of cluster %s left out: %v", chosen[i].Cluster, err))
			continue
		}
		answered = append(answered, out[i])
	}
	return answered, nil
}
