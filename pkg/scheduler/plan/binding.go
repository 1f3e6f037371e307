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

package plan

import (
	"fmt"
	"io"
	"strings"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/placement"
	"github.com/mco-org/mco/pkg/workload"
)

// toBinding returns the binding to schedule: the one given, or the one the
// detector would create for the template the policy selects. Notes for the
// user go to warn.
func (in *inputs) toBinding(warn io.Writer) (*binding, error) {
	if len(in.bindings) == 1 {
		return &in.bindings[0], nil
	}
	p := &in.policies[0]
	t, err := in.pickTemplate(p, warn)
	if err != nil {
		return nil, err
	}
	w, err := workload.Interpret(t.obj)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.from, err)
	}
	spec := &workv1alpha2.ResourceBindingSpec{
		Resource: workv1alpha2.ObjectReference{
			APIVersion: t.obj.GetAPIVersion(), Kind: t.obj.GetKind(),
			Namespace: t.obj.GetNamespace(), Name: t.obj.GetName(),
			UID: t.obj.GetUID(), ResourceVersion: t.obj.GetResourceVersion(),
		},
		Replicas:            w.Replicas,
		ReplicaRequirements: w.Requirements,
		Placement:           p.spec.Placement.DeepCopy(),
		PropagateDeps:       p.spec.PropagateDeps,
		SchedulerName:       p.spec.SchedulerName,
		ConflictResolution:  p.spec.ConflictResolution,
	}
	return &binding{from: t.from, uid: string(t.obj.GetUID()), spec: spec, status: &workv1alpha2.ResourceBindingStatus{}}, nil
}

// pickTemplate returns the only template, or the only one the policy
// selects when there are several. A lone template the policy does not
// select is still used, with a warning.
func (in *inputs) pickTemplate(p *policy, warn io.Writer) (*template, error) {
	var selected []*template
	for i := range in.templates {
		ok, err := p.selects(in.templates[i])
		if err != nil {
			return nil, err
		}
		if ok {
			selected = append(selected, &in.templates[i])
		}
	}
	switch {
	case len(in.templates) == 1 && len(selected) == 0:
		t := &in.templates[0]
		_, _ = fmt.Fprintf(warn, "warning: the propagation policy (%s) does not select %s (%s); placing it anyway\n",
			p.from, describe(t), t.from)
		return t, nil
	case len(selected) == 1:
		return selected[0], nil
	case len(selected) == 0:
		return nil, fmt.Errorf("the propagation policy (%s) selects none of the %d workload templates given", p.from, len(in.templates))
	}
	names := make([]string, len(selected))
	for i, t := range selected {
		names[i] = describe(t)
	}
	return nil, fmt.Errorf("the propagation policy (%s) selects %d workload templates (%s): give one", p.from, len(selected),
		strings.Join(names, ", "))
}

// describe names a template as "apps/v1 Deployment default/web".
func describe(t *template) string {
	name := t.obj.GetName()
	if ns := t.obj.GetNamespace(); ns != "" {
		name = ns + "/" + name
	}
	return t.obj.GetAPIVersion() + " " + t.obj.GetKind() + " " + name
}

// selects tells whether one of the policy's resource selectors matches the
// template. A template without a namespace counts as being in the policy's
// namespace, as when it is applied with kubectl -n.
func (p *policy) selects(t template) (bool, error) {
	obj := t.obj
	if obj.GetNamespace() == "" && p.namespace != "" {
		obj = obj.DeepCopy()
		obj.SetNamespace(p.namespace)
	}
	for i := range p.spec.ResourceSelectors {
		priority, err := placement.ResourceSelectorPriority(obj, &p.spec.ResourceSelectors[i])
		if err != nil {
			return false, fmt.Errorf("%s: spec.resourceSelectors[%d]: %w", p.from, i, err)
		}
		if priority != placement.PriorityMisMatch {
			return true, nil
		}
	}
	return false, nil
}
