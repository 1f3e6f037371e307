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

package v1alpha1

import "bytes"

// JSON holds an arbitrary JSON value (object, array, string, number or bool)
// exactly as it was sent. A JSON null, or a missing value, leaves Raw empty.
// On the wire it is the bare value, with no wrapping object.
type JSON struct {
	// Raw is the encoded value.
	Raw []byte `json:"-" protobuf:"bytes,1,opt,name=raw"`
}

var jsonNull = []byte("null")

// MarshalJSON writes the stored value, or null when there is none.
func (j JSON) MarshalJSON() ([]byte, error) {
	if len(j.Raw) == 0 {
		return jsonNull, nil
	}
	return j.Raw, nil
}

// UnmarshalJSON keeps a private copy of the value; null leaves it empty.
func (j *JSON) UnmarshalJSON(data []byte) error {
	if len(data) == 0 || bytes.Equal(data, jsonNull) {
		j.Raw = nil
		return nil
	}
	j.Raw = append([]byte(nil), data...)
	return nil
}

// OpenAPISchemaType tells the OpenAPI generator that the value has no fixed
// type, so the schema accepts anything.
func (JSON) OpenAPISchemaType() []string { return nil }

// OpenAPISchemaFormat tells the OpenAPI generator that there is no format.
func (JSON) OpenAPISchemaFormat() string { return "" }
