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
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"sigs.k8s.io/yaml"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// applyField edits the JSON or YAML document held in the string field at
// fieldPath (a ConfigMap data entry, say): it parses the document, applies
// the JSON patch operations at their sub paths in order (an empty sub path
// is the whole document), and writes the document back in the same format.
// JSON comes back compact; YAML comes back with sorted keys and without
// comments, as in Karmada.
func applyField(obj map[string]any, o *policyv1alpha1.FieldOverrider) error {
	tokens, err := parsePointer(o.FieldPath)
	if err != nil {
		return fmt.Errorf("fieldPath %s: %w", o.FieldPath, err)
	}
	if len(tokens) == 0 {
		return errors.New("fieldPath: points at the whole object, not a string field")
	}
	v, err := lookup(obj, tokens)
	if err != nil {
		return err
	}
	text, ok := v.(string)
	if !ok {
		return fmt.Errorf("%s: %s, not a string", o.FieldPath, typeName(v))
	}
	var out []byte
	switch {
	case len(o.JSON) > 0 && len(o.YAML) > 0:
		return errors.New("json and yaml may not both be set")
	case len(o.JSON) > 0:
		if out, err = editJSON([]byte(text), o.JSON); err != nil {
			return fmt.Errorf("%s: %w", o.FieldPath, err)
		}
	case len(o.YAML) > 0:
		if out, err = editYAML([]byte(text), o.YAML); err != nil {
			return fmt.Errorf("%s: %w", o.FieldPath, err)
		}
	default:
		return nil
	}
	return replaceAt(obj, tokens, string(out))
}

func editJSON(doc []byte, ops []policyv1alpha1.JSONPatchOperation) ([]byte, error) {
	if !json.Valid(doc) {
		return nil, errors.New("the field does not hold a JSON document")
	}
	var err error
	for i := range ops {
		op := &ops[i]
		if doc, err = applyDocOp(doc, op.Operator, op.SubPath, op.Value); err != nil {
			return nil, fmt.Errorf("json[%d] %s %s: %w", i, op.Operator, subPathLabel(op.SubPath), err)
		}
	}
	return doc, nil
}

func editYAML(text []byte, ops []policyv1alpha1.YAMLPatchOperation) ([]byte, error) {
	doc, err := yaml.YAMLToJSON(text)
	if err != nil {
		return nil, fmt.Errorf("the field does not hold a YAML document: %w", err)
	}
	for i := range ops {
		op := &ops[i]
		if doc, err = applyDocOp(doc, op.Operator, op.SubPath, op.Value); err != nil {
			return nil, fmt.Errorf("yaml[%d] %s %s: %w", i, op.Operator, subPathLabel(op.SubPath), err)
		}
	}
	out, err := yaml.JSONToYAML(doc)
	if err != nil {
		return nil, fmt.Errorf("encode YAML: %w", err)
	}
	return out, nil
}

// applyDocOp is applyPatchOp, plus the empty sub path: add and replace
// replace the whole document, remove is refused.
func applyDocOp(doc []byte, op policyv1alpha1.OverriderOperator, subPath string, value policyv1alpha1.JSON) ([]byte, error) {
	if subPath != "" {
		return applyPatchOp(doc, op, subPath, value)
	}
	switch op {
	case policyv1alpha1.OverriderOpAdd, policyv1alpha1.OverriderOpReplace:
		if len(value.Raw) == 0 {
			return nil, fmt.Errorf("%s needs a value", op)
		}
		var b bytes.Buffer
		if err := json.Compact(&b, value.Raw); err != nil {
			return nil, fmt.Errorf("the value is not valid JSON: %w", err)
		}
		return b.Bytes(), nil
	case policyv1alpha1.OverriderOpRemove:
		return nil, errors.New("cannot remove the whole document")
	}
	return nil, fmt.Errorf("unsupported operator %q", op)
}

// subPathLabel shows a sub path in errors; the empty one is written "".
func subPathLabel(subPath string) string {
	if subPath == "" {
		return `""`
	}
	return subPath
}
