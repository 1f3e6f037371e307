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
	"k8s.io/apimachinery/pkg/runtime/schema"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/binding"
	clusterlisters "github.com/mco-org/mco/pkg/generated/listers/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/member"
	"github.com/mco-org/mco/pkg/names"
)

// counting says which members' pods the autoscaler counts — the Ready
// Push members this process reaches, and the Ready Pull members whose
// agents report their pods — and the share of a template's replicas they
// run, read from the template's binding.
type counting struct {
	bindings *binding.Store
	clusters clusterlisters.ClusterLister
	members  member.Source
	reports  *reports
}

// counted tells whether a member's pods are counted.
func (c counting) counted(cluster string) bool {
	cl, err := c.clusters.Get(cluster)
	if err != nil || !ready(cl) {
		return false
	}
	if cl.Spec.SyncMode == clusterv1alpha1.Pull {
		_, err := c.reports.pods(cluster)
		return err == nil
	}
	return c.members.Reaches(cluster)
}

// target is a shareFunc.
func (c counting) target(namespace string, gvk schema.GroupVersionKind, name string) targetView {
	v, err := c.bindings.Get(binding.Key{Namespace: namespace, Name: names.Binding(gvk.Kind, name)})
	if err != nil {
		return targetView{share: 1, replicas: -1}
	}
	gv, err := schema.ParseGroupVersion(v.Spec.Resource.APIVersion)
	if err != nil || gv.Group != gvk.Group || v.Spec.Resource.Kind != gvk.Kind || v.Spec.Resource.Name != name {
		return targetView{share: 1, replicas: -1}
	}
	t := targetView{share: Share(v.Spec, c.counted), replicas: v.Spec.Replicas}
	// The counted clusters the template goes to: mco's metrics.k8s.io
	// also answers for members whose pods are not counted (a Pull member
	// whose agent reported its metrics but not its pods), and their
	// metrics must not count.
	var all []string
	for _, tc := range binding.Targets(v.Spec) {
		all = append(all, tc.Name)
		if c.counted(tc.Name) {
			t.clusters = append(t.clusters, tc.Name)
		}
	}
	if len(t.clusters) == 0 {
		t.clusters = all
	}
	return t
}
