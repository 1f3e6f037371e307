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
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// pointerUnescaper decodes a JSON pointer token (RFC 6901: "~1" is "/",
// then "~0" is "~").
var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

// parsePointer splits a JSON pointer such as "/spec/template/0" into its
// decoded tokens. The empty pointer (the whole document) has no tokens.
func parsePointer(pointer string) ([]string, error) {
	if pointer == "" {
		return nil, nil
	}
	if !strings.HasPrefix(pointer, "/") {
		return nil, errors.New("a JSON pointer starts with /")
	}
	tokens := strings.Split(pointer[1:], "/")
	for i, t := range tokens {
		tokens[i] = pointerUnescaper.Replace(t)
	}
	return tokens, nil
}

// lookup returns the value the tokens point at in doc, a tree of
// map[string]any and []any.
func lookup(doc any, tokens []string) (any, error) {
	cur := doc
	for i, t := range tokens {
		next, err := child(cur, t)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", formatPointer(tokens[:i+1]), err)
		}
		cur = next
	}
	return cur, nil
}

// replaceAt sets the existing value the tokens point at (at least one
// token) to v.
func replaceAt(doc any, tokens []string, v any) error {
	parent, err := lookup(doc, tokens[:len(tokens)-1])
	if err != nil {
		return err
	}
	last := tokens[len(tokens)-1]
	if _, err := child(parent, last); err != nil {
		return fmt.Errorf("%s: %w", formatPointer(tokens), err)
	}
	switch p := parent.(type) {
	case map[string]any:
		p[last] = v
	case []any:
		i, _ := strconv.Atoi(last) // child checked it
		p[i] = v
	}
	return nil
}

// child steps from a map to a key or from a list to an index.
func child(node any, token string) (any, error) {
	switch n := node.(type) {
	case map[string]any:
		v, ok := n[token]
		if !ok {
			return nil, errors.New("no such field")
		}
		return v, nil
	case []any:
		i, err := strconv.Atoi(token)
		if err != nil || i < 0 || i >= len(n) || token != strconv.Itoa(i) {
			return nil, fmt.Errorf("no index %q in a list of %d", token, len(n))
		}
		return n[i], nil
	}
	return nil, fmt.Errorf("cannot step into %s", typeName(node))
}

// formatPointer joins tokens back into a JSON pointer.
func formatPointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// typeName names the JSON type of a decoded value, with its article, for
// error messages.
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	case string:
		return "a string"
	case bool:
		return "a bool"
	}
	return "a number"
}
