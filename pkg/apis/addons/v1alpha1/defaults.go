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

// DefaultReleaseNamespace is where a release goes when it names no
// namespace, as with helm install.
const DefaultReleaseNamespace = "default"

// SetDefaults fills what an Addon leaves out: the release's name (the
// Addon's) and namespace, and the key of each ValuesReference.
func (a *Addon) SetDefaults() {
	if a.Spec.Release.Name == "" {
		a.Spec.Release.Name = a.Name
	}
	if a.Spec.Release.Namespace == "" {
		a.Spec.Release.Namespace = DefaultReleaseNamespace
	}
	for i := range a.Spec.ValuesFrom {
		if a.Spec.ValuesFrom[i].Key == "" {
			a.Spec.ValuesFrom[i].Key = DefaultValuesKey
		}
	}
}
