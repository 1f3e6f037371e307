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
)

// podSpecPaths are where each workload kind keeps its pod spec. As in
// Karmada, the kind alone decides.
var podSpecPaths = map[string][]string{
	"Pod":         {"spec"},
	"Deployment":  {"spec", "template", "spec"},
	"StatefulSet": {"spec", "template", "spec"},
	"DaemonSet":   {"spec", "template", "spec"},
	"ReplicaSet":  {"spec", "template", "spec"},
	"Job":         {"spec", "template", "spec"},
	"CronJob":     {"spec", "jobTemplate", "spec", "template", "spec"},
}

// container is one container of the pod spec and where it is.
type container struct {
	path string // JSON pointer, e.g. /spec/template/spec/initContainers/0
	obj  map[string]any
}

// podContainers returns the containers and then the init containers of the
// pod spec of a workload of the given kind, in order; none for other kinds
// or when the pod spec has none.
func podContainers(obj map[string]any, kind string) ([]container, error) {
	specPath, ok := podSpecPaths[kind]
	if !ok {
		return nil, nil
	}
	spec, err := lookup(obj, specPath)
	if err != nil {
		return nil, nil // no pod spec: nothing to change
	}
	var out []container
	for _, field := range []string{"containers", "initContainers"} {
		path := append(append([]string(nil), specPath...), field)
		list, err := lookup(spec, []string{field})
		if err != nil || list == nil {
			continue
		}
		items, ok := list.([]any)
		if !ok {
			return nil, fmt.Errorf("%s: %s, not a list", formatPointer(path), typeName(list))
		}
		for i, item := range items {
			c, ok := item.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s/%d: %s, not an object", formatPointer(path), i, typeName(item))
			}
			out = append(out, container{path: fmt.Sprintf("%s/%d", formatPointer(path), i), obj: c})
		}
	}
	return out, nil
}
