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

// applyImage changes the image at predicate.path or, without a predicate,
// the image of every container and init container of the workload's pod
// spec (Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob;
// other kinds are left alone).
func applyImage(obj map[string]any, kind string, o *policyv1alpha1.ImageOverrider) error {
	if o.Predicate != nil {
		return overrideImageAt(obj, o.Predicate.Path, o)
	}
	containers, err := podContainers(obj, kind)
	if err != nil {
		return err
	}
	for _, c := range containers {
		if err := overrideImageAt(c.obj, "/image", o); err != nil {
			return fmt.Errorf("%s%w", c.path, err)
		}
	}
	return nil
}

// overrideImageAt overrides the image string at the JSON pointer.
func overrideImageAt(doc map[string]any, pointer string, o *policyv1alpha1.ImageOverrider) error {
	tokens, err := parsePointer(pointer)
	if err != nil {
		return fmt.Errorf("%s: %w", pointer, err)
	}
	if len(tokens) == 0 {
		return fmt.Errorf("%q: points at the whole object, not an image", pointer)
	}
	v, err := lookup(doc, tokens)
	if err != nil {
		return err
	}
	image, ok := v.(string)
	if !ok {
		return fmt.Errorf("%s: %s, not an image string", pointer, typeName(v))
	}
	out, err := overrideImage(image, o)
	if err != nil {
		return fmt.Errorf("%s: %w", pointer, err)
	}
	return replaceAt(doc, tokens, out)
}
