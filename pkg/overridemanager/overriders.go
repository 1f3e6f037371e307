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

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// applyOverriders runs the overriders of one rule in Karmada's order:
// image, command, args, labels, annotations, field, then plaintext.
func applyOverriders(obj *unstructured.Unstructured, o *policyv1alpha1.Overriders) error {
	kind := obj.GetKind()
	for i := range o.ImageOverrider {
		if err := applyImage(obj.Object, kind, &o.ImageOverrider[i]); err != nil {
			return fmt.Errorf("imageOverrider[%d]: %w", i, err)
		}
	}
	for i := range o.CommandOverrider {
		if err := applyCommandArgs(obj.Object, kind, "command", &o.CommandOverrider[i]); err != nil {
			return fmt.Errorf("commandOverrider[%d]: %w", i, err)
		}
	}
	for i := range o.ArgsOverrider {
		if err := applyCommandArgs(obj.Object, kind, "args", &o.ArgsOverrider[i]); err != nil {
			return fmt.Errorf("argsOverrider[%d]: %w", i, err)
		}
	}
	for i := range o.LabelsOverrider {
		if err := applyStringMap(obj.Object, "labels", &o.LabelsOverrider[i]); err != nil {
			return fmt.Errorf("labelsOverrider[%d]: %w", i, err)
		}
	}
	for i := range o.AnnotationsOverrider {
		if err := applyStringMap(obj.Object, "annotations", &o.AnnotationsOverrider[i]); err != nil {
			return fmt.Errorf("annotationsOverrider[%d]: %w", i, err)
		}
	}
	for i := range o.FieldOverrider {
		if err := applyField(obj.Object, &o.FieldOverrider[i]); err != nil {
			return fmt.Errorf("fieldOverrider[%d]: %w", i, err)
		}
	}
	if len(o.Plaintext) == 0 {
		return nil
	}
	patched, err := applyPlaintext(obj.Object, o.Plaintext)
	if err != nil {
		return err
	}
	obj.Object = patched
	return nil
}
