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

package overridemanager

import (
	"fmt"
	"slices"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// applyCommandArgs changes the command or args (field) of the containers
// named containerName in the workload's pod spec: add appends the values
// (creating the list), remove drops every item equal to one of them. No
// container of that name, or another kind, changes nothing. Init
// containers are matched by name too (Karmada looks at containers only).
func applyCommandArgs(obj map[string]any, kind, field string, o *policyv1alpha1.CommandArgsOverrider) error {
	if o.Operator != policyv1alpha1.OverriderOpAdd && o.Operator != policyv1alpha1.OverriderOpRemove {
		return fmt.Errorf("unsupported operator %q", o.Operator)
	}
	containers, err := podContainers(obj, kind)
	if err != nil {
		return err
	}
	for _, c := range containers {
		if name, _ := c.obj["name"].(string); name != o.ContainerName {
			continue
		}
		current, err := stringList(c.obj[field])
		if err != nil {
			return fmt.Errorf("%s/%s: %w", c.path, field, err)
		}
		switch {
		case o.Operator == policyv1alpha1.OverriderOpAdd:
			for _, v := range o.Value {
				current = append(current, v)
			}
		case c.obj[field] == nil:
			continue // nothing to remove
		default:
			current = slices.DeleteFunc(current, func(v any) bool { return slices.Contains(o.Value, v.(string)) })
		}
		c.obj[field] = current
	}
	return nil
}

// stringList checks that v is absent or a list of strings, and returns a
// copy of it.
func stringList(v any) ([]any, error) {
	if v == nil {
		return []any{}, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s, not a list of strings", typeName(v))
	}
	for i, item := range list {
		if _, ok := item.(string); !ok {
			return nil, fmt.Errorf("item %d is %s, not a string", i, typeName(item))
		}
	}
	return slices.Clone(list), nil
}
