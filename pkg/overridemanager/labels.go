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

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// applyStringMap changes metadata.labels or metadata.annotations (field)
// as Karmada does: add sets every key (creating the map), replace sets only
// the keys already there, remove deletes the keys given (their values do
// not matter). Keys containing "/" are fine.
func applyStringMap(obj map[string]any, field string, o *policyv1alpha1.LabelAnnotationOverrider) error {
	switch o.Operator {
	case policyv1alpha1.OverriderOpAdd, policyv1alpha1.OverriderOpReplace, policyv1alpha1.OverriderOpRemove:
	default:
		return fmt.Errorf("unsupported operator %q", o.Operator)
	}
	meta, ok := obj["metadata"].(map[string]any)
	if !ok {
		if obj["metadata"] != nil {
			return fmt.Errorf("/metadata: %s, not an object", typeName(obj["metadata"]))
		}
		if o.Operator != policyv1alpha1.OverriderOpAdd {
			return nil
		}
		meta = map[string]any{}
		obj["metadata"] = meta
	}
	m, ok := meta[field].(map[string]any)
	if !ok {
		if meta[field] != nil {
			return fmt.Errorf("/metadata/%s: %s, not an object", field, typeName(meta[field]))
		}
		if o.Operator != policyv1alpha1.OverriderOpAdd {
			return nil
		}
		m = map[string]any{}
		meta[field] = m
	}
	for k, v := range o.Value {
		switch o.Operator {
		case policyv1alpha1.OverriderOpAdd:
			m[k] = v
		case policyv1alpha1.OverriderOpReplace:
			if _, ok := m[k]; ok {
				m[k] = v
			}
		default:
			delete(m, k)
		}
	}
	return nil
}
