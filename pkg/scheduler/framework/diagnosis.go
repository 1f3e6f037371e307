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

package framework

import (
	"fmt"
	"sort"
	"strings"
)

// Rejection is one cluster a filter turned down.
type Rejection struct {
	// Cluster is the cluster's name.
	Cluster string
	// Status is the first non-success status; Status.Plugin names the plugin.
	Status *Status
}

// Diagnosis explains a filter pass: which clusters were rejected and why.
type Diagnosis struct {
	// Rejected lists the rejected clusters in input order.
	Rejected []Rejection
}

// StatusOf returns the status that rejected the cluster, or nil when the
// cluster was not rejected.
func (d Diagnosis) StatusOf(cluster string) *Status {
	for i := range d.Rejected {
		if d.Rejected[i].Cluster == cluster {
			return d.Rejected[i].Status
		}
	}
	return nil
}

// UnschedulablePlugins returns the sorted names of the plugins that
// rejected at least one cluster.
func (d Diagnosis) UnschedulablePlugins() []string {
	seen := map[string]bool{}
	var names []string
	for _, r := range d.Rejected {
		if p := r.Status.Plugin(); !seen[p] {
			seen[p] = true
			names = append(names, p)
		}
	}
	sort.Strings(names)
	return names
}

// FitError says that no cluster passed the filters.
type FitError struct {
	// NumAllClusters is how many clusters were considered.
	NumAllClusters int
	// Diagnosis holds the per-cluster reasons.
	Diagnosis Diagnosis
}

// Error counts the clusters per reason and lists "N <reason>" entries sorted
// as text, e.g. "0/3 clusters are available: 1 cluster(s) did not have the
// API resource, 2 cluster(s) did not match the placement cluster affinity
// constraint." This is the message Karmada puts in the Scheduled condition.
func (e *FitError) Error() string {
	counts := map[string]int{}
	for _, r := range e.Diagnosis.Rejected {
		for _, reason := range r.Status.Reasons() {
			counts[reason]++
		}
	}
	if len(counts) == 0 {
		return fmt.Sprintf("0/%d clusters are available.", e.NumAllClusters)
	}
	histogram := make([]string, 0, len(counts))
	for reason, n := range counts {
		histogram = append(histogram, fmt.Sprintf("%d %s", n, reason))
	}
	sort.Strings(histogram)
	return fmt.Sprintf("0/%d clusters are available: %s.", e.NumAllClusters, strings.Join(histogram, ", "))
}
