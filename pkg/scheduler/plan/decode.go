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
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	serializerjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// Document is one decoded input object and where it came from.
type Document struct {
	// Source names the object in messages, such as "deploy.yaml: document 2".
	Source string
	// Object is one of our kinds, typed and defaulted, or a workload
	// template as an *unstructured.Unstructured.
	Object runtime.Object
}

// ourGroups are the API groups decoded strictly into our types; any other
// apiVersion is a workload template.
var ourGroups = map[string]bool{
	clusterv1alpha1.GroupName: true,
	policyv1alpha1.GroupName:  true,
	workv1alpha2.GroupName:    true,
}

// decoder decodes our kinds strictly and applies the scheme's defaults.
type decoder struct {
	scheme *runtime.Scheme
	strict runtime.Decoder
}

func newDecoder() (*decoder, error) {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		clusterv1alpha1.AddToScheme, policyv1alpha1.AddToScheme, workv1alpha1.AddToScheme, workv1alpha2.AddToScheme,
	} {
		if err := add(scheme); err != nil {
			return nil, fmt.Errorf("build scheme: %w", err)
		}
	}
	strict := serializerjson.NewSerializerWithOptions(serializerjson.DefaultMetaFactory, scheme, scheme,
		serializerjson.SerializerOptions{Strict: true})
	return &decoder{scheme: scheme, strict: strict}, nil
}

// ReadFiles decodes every document of every file, in order: our kinds
// strictly into their types, with the scheme's defaults, any other
// apiVersion as a workload template. Empty documents (blank, comments
// only) are skipped. Errors name the file and document at fault.
func ReadFiles(files []string) ([]Document, error) {
	d, err := newDecoder()
	if err != nil {
		return nil, err
	}
	expanded, err := expandDirs(files)
	if err != nil {
		return nil, err
	}
	var out []Document
	for _, file := range expanded {
		docs, err := d.readFile(file)
		if err != nil {
			return nil, err
		}
		out = append(out, docs...)
	}
	return out, nil
}

func (d *decoder) readFile(file string) ([]Document, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	reader := utilyaml.NewYAMLReader(bufio.NewReader(f))
	var out []Document
	for index := 1; ; index++ {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		from := fmt.Sprintf("%s: document %d", file, index)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", from, err)
		}
		items, isList, err := listItems(doc)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", from, err)
		}
		if !isList {
			items = [][]byte{doc}
		}
		for i, item := range items {
			source := from
			if isList {
				source = fmt.Sprintf("%s, item %d", from, i+1)
			}
			obj, err := d.decode(item)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", source, err)
			}
			if obj != nil {
				out = append(out, Document{Source: source, Object: obj})
			}
		}
	}
}

// listItems returns the items of a list document (`kind: List`, or any
// kind ending in List with items), which kubectl -f flattens too; isList
// is false when doc is no list.
func listItems(doc []byte) (items [][]byte, isList bool, err error) {
	data, err := utilyaml.ToJSON(doc)
	if err != nil {
		return nil, false, err
	}
	var list struct {
		Kind  string            `json:"kind"`
		Items []json.RawMessage `json:"items"`
	}
	if json.Unmarshal(data, &list) != nil || !strings.HasSuffix(list.Kind, "List") || list.Items == nil {
		return nil, false, nil
	}
	for _, item := range list.Items {
		items = append(items, item)
	}
	return items, true, nil
}

// decode turns one YAML or JSON document into an object, or nil for an
// empty document.
func (d *decoder) decode(doc []byte) (runtime.Object, error) {
	data, err := utilyaml.ToJSON(doc)
	if err != nil {
		return nil, err
	}
	if t := bytes.TrimSpace(data); len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return nil, nil
	}
	var meta metav1.TypeMeta
	if err := json.Unmarshal(data, &meta); err != nil {
		return nil, fmt.Errorf("not a Kubernetes object: %w", err)
	}
	if meta.APIVersion == "" || meta.Kind == "" {
		return nil, errors.New("apiVersion and kind are required")
	}
	gv, err := schema.ParseGroupVersion(meta.APIVersion)
	if err != nil {
		return nil, fmt.Errorf("apiVersion: %w", err)
	}
	if !ourGroups[gv.Group] {
		var u unstructured.Unstructured
		if err := u.UnmarshalJSON(data); err != nil {
			return nil, err
		}
		return &u, nil
	}
	if !d.scheme.Recognizes(gv.WithKind(meta.Kind)) {
		return nil, fmt.Errorf("unknown kind %s %s", meta.APIVersion, meta.Kind)
	}
	obj, _, err := d.strict.Decode(data, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", meta.APIVersion, meta.Kind, err)
	}
	d.scheme.Default(obj)
	return obj, nil
}

// expandDirs replaces each directory by its .yaml, .yml and .json files,
// sorted, as kubectl -f does (not recursively).
func expandDirs(files []string) ([]string, error) {
	var out []string
	for _, f := range files {
		info, err := os.Stat(f)
		if err != nil || !info.IsDir() {
			out = append(out, f) // a missing file is reported when read
			continue
		}
		entries, err := os.ReadDir(f)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			switch filepath.Ext(e.Name()) {
			case ".yaml", ".yml", ".json":
				if !e.IsDir() {
					out = append(out, filepath.Join(f, e.Name()))
				}
			}
		}
	}
	return out, nil
}
