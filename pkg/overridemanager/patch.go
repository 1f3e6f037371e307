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

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// applyPlaintext applies the plaintext overriders, JSON patch operations
// on the whole object, in order, and returns the patched object.
func applyPlaintext(obj map[string]any, overriders []policyv1alpha1.PlaintextOverrider) (map[string]any, error) {
	doc, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("encode object: %w", err)
	}
	for i := range overriders {
		o := &overriders[i]
		if doc, err = applyPatchOp(doc, o.Operator, o.Path, o.Value); err != nil {
			return nil, fmt.Errorf("plaintext[%d] %s %s: %w", i, o.Operator, o.Path, err)
		}
	}
	var out map[string]any
	if err := utiljson.Unmarshal(doc, &out); err != nil {
		return nil, fmt.Errorf("plaintext: decode patched object: %w", err)
	}
	return out, nil
}

// patchOp is one JSON patch (RFC 6902) operation.
type patchOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value,omitempty"`
}

// applyPatchOp applies one add, remove or replace operation to a JSON
// document. add and replace need a value; remove ignores it. The path must
// exist (its parent, for add).
func applyPatchOp(doc []byte, op policyv1alpha1.OverriderOperator, path string, value policyv1alpha1.JSON) ([]byte, error) {
	raw := json.RawMessage(value.Raw)
	switch op {
	case policyv1alpha1.OverriderOpAdd, policyv1alpha1.OverriderOpReplace:
		if len(raw) == 0 {
			return nil, fmt.Errorf("%s needs a value", op)
		}
		if !json.Valid(raw) {
			return nil, errors.New("the value is not valid JSON")
		}
	case policyv1alpha1.OverriderOpRemove:
		raw = nil
	default:
		return nil, fmt.Errorf("unsupported operator %q", op)
	}
	doc = bytes.TrimSpace(doc)
	if len(doc) == 0 || bytes.Equal(doc, []byte("null")) {
		return nil, errors.New("the document is empty")
	}
	if op == policyv1alpha1.OverriderOpReplace {
		// The library replaces a missing object key as if it were add;
		// RFC 6902 (and Karmada) refuse it.
		if err := mustExist(doc, path); err != nil {
			return nil, err
		}
	}
	encoded, err := json.Marshal([]patchOp{{Op: string(op), Path: path, Value: raw}})
	if err != nil {
		return nil, fmt.Errorf("encode patch: %w", err)
	}
	patch, err := jsonpatch.DecodePatch(encoded)
	if err != nil {
		return nil, fmt.Errorf("decode patch: %w", err)
	}
	return applySafely(patch, doc)
}

// applySafely applies the patch, turning a panic of the library (on
// documents it does not expect) into an error.
func applySafely(patch jsonpatch.Patch, doc []byte) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("json patch failed: %v", r)
		}
	}()
	return patch.Apply(doc)
}

// mustExist checks that the JSON pointer points at a value in doc.
func mustExist(doc []byte, path string) error {
	tokens, err := parsePointer(path)
	if err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		return fmt.Errorf("decode document: %w", err)
	}
	if _, err := lookup(v, tokens); err != nil {
		return fmt.Errorf("nothing to replace: %w", err)
	}
	return nil
}
