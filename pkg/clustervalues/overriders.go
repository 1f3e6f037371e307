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

package clustervalues

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"

	"k8s.io/apimachinery/pkg/util/validation/field"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// edit is called on each string value of the overriders, with its path;
// what it returns replaces the value.
type edit func(path *field.Path, s string) (string, error)

// Validate reports, as field errors under fldPath, every string value of
// the overriders that would not expand.
func Validate(o *policyv1alpha1.Overriders, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	_, _ = walk(o, fldPath, func(p *field.Path, s string) (string, error) {
		if err := Check(s); err != nil {
			errs = append(errs, field.Invalid(p, s, err.Error()))
		}
		return s, nil
	})
	return errs
}

// ExpandOverriders returns a copy of the overriders with every placeholder replaced
// by the cluster's value. The error names the value, as in
// "labelsOverrider[0].value[env]: ${cluster.labels['env']}: cluster m1 has
// no label "env"".
func ExpandOverriders(o *policyv1alpha1.Overriders, cluster *clusterv1alpha1.Cluster) (*policyv1alpha1.Overriders, error) {
	return walk(o, nil, func(p *field.Path, s string) (string, error) {
		out, err := Expand(s, cluster)
		if err != nil {
			return "", fmt.Errorf("%s: %w", p, err)
		}
		return out, nil
	})
}

// walk applies fn to every string value of a copy of o: plaintext and
// field overrider values (strings anywhere inside their JSON), image
// components, command and args items, and label and annotation values.
// Keys, paths and operators are left alone.
func walk(in *policyv1alpha1.Overriders, fldPath *field.Path, fn edit) (*policyv1alpha1.Overriders, error) {
	o := in.DeepCopy()
	for i := range o.Plaintext {
		if err := editJSON(&o.Plaintext[i].Value, fldPath.Child("plaintext").Index(i).Child("value"), fn); err != nil {
			return nil, err
		}
	}
	for i := range o.ImageOverrider {
		v, err := fn(fldPath.Child("imageOverrider").Index(i).Child("value"), o.ImageOverrider[i].Value)
		if err != nil {
			return nil, err
		}
		o.ImageOverrider[i].Value = v
	}
	for _, x := range []struct {
		name string
		list []policyv1alpha1.CommandArgsOverrider
	}{{"commandOverrider", o.CommandOverrider}, {"argsOverrider", o.ArgsOverrider}} {
		name, list := x.name, x.list
		for i := range list {
			for j, item := range list[i].Value {
				v, err := fn(fldPath.Child(name).Index(i).Child("value").Index(j), item)
				if err != nil {
					return nil, err
				}
				list[i].Value[j] = v
			}
		}
	}
	for _, x := range []struct {
		name string
		list []policyv1alpha1.LabelAnnotationOverrider
	}{{"labelsOverrider", o.LabelsOverrider}, {"annotationsOverrider", o.AnnotationsOverrider}} {
		name, list := x.name, x.list
		for i := range list {
			for _, k := range slices.Sorted(maps.Keys(list[i].Value)) {
				p := fldPath.Child(name).Index(i).Child("value").Key(k)
				v, err := fn(p, list[i].Value[k])
				if err != nil {
					return nil, err
				}
				// A label value made of a cluster's value must still be one.
				if errs := validation.IsValidLabelValue(v); name == "labelsOverrider" && v != list[i].Value[k] && len(errs) > 0 {
					return nil, fmt.Errorf("%s: %q, from %q, is not a valid label value: %s", p, v, list[i].Value[k], strings.Join(errs, "; "))
				}
				list[i].Value[k] = v
			}
		}
	}
	for i := range o.FieldOverrider {
		f := &o.FieldOverrider[i]
		p := fldPath.Child("fieldOverrider").Index(i)
		for j := range f.JSON {
			if err := editJSON(&f.JSON[j].Value, p.Child("json").Index(j).Child("value"), fn); err != nil {
				return nil, err
			}
		}
		for j := range f.YAML {
			if err := editJSON(&f.YAML[j].Value, p.Child("yaml").Index(j).Child("value"), fn); err != nil {
				return nil, err
			}
		}
	}
	return o, nil
}

// editJSON applies fn to every string inside a JSON value (object values
// and array items, at any depth; not object keys), and writes the value
// back only when a string changed.
func editJSON(v *policyv1alpha1.JSON, fldPath *field.Path, fn edit) error {
	if len(v.Raw) == 0 || !bytes.Contains(v.Raw, []byte("${")) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(v.Raw))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil // not JSON: the overrider's own validation says so
	}
	changed := false
	out, err := editAny(doc, fldPath, fn, &changed)
	if err != nil || !changed {
		return err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("%s: encode: %w", fldPath, err)
	}
	v.Raw = bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	return nil
}

func editAny(doc any, fldPath *field.Path, fn edit, changed *bool) (any, error) {
	switch t := doc.(type) {
	case string:
		out, err := fn(fldPath, t)
		if out != t {
			*changed = true
		}
		return out, err
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(t)) {
			v, err := editAny(t[k], fldPath.Key(k), fn, changed)
			if err != nil {
				return nil, err
			}
			t[k] = v
		}
	case []any:
		for i := range t {
			v, err := editAny(t[i], fldPath.Index(i), fn, changed)
			if err != nil {
				return nil, err
			}
			t[i] = v
		}
	}
	return doc, nil
}
