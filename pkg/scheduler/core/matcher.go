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

package core

import (
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/scheduler/plugins"
)

// newMatcher compiles a cluster affinity into a predicate.
func newMatcher(a *policyv1alpha1.ClusterAffinity) (func(*clusterv1alpha1.Cluster) bool, error) {
	m, err := plugins.NewAffinityMatcher(a)
	if err != nil {
		return nil, err
	}
	return m.Matches, nil
}
