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

package validation

import (
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
)

// maxDataSize caps the summed size of the values of a ConfigMap or a Secret.
const maxDataSize = corev1.MaxSecretSize

const immutableDataMsg = "field is immutable when `immutable` is set"

var (
	dataPath       = field.NewPath("data")
	binaryDataPath = field.NewPath("binaryData")
	immutablePath  = field.NewPath("immutable")
)

// ValidateConfigMap checks a new ConfigMap: valid keys, no key in both data
// and binaryData, and at most 1 MiB of values.
func ValidateConfigMap(cm *corev1.ConfigMap) field.ErrorList {
	errs := apivalidation.ValidateObjectMeta(&cm.ObjectMeta, true, apivalidation.NameIsDNSSubdomain, metadataPath)
	return append(errs, validateConfigMapData(cm)...)
}

func validateConfigMapData(cm *corev1.ConfigMap) field.ErrorList {
	var errs field.ErrorList
	size := 0
	for key, value := range cm.Data {
		errs = append(errs, validateDataKey(key, dataPath.Key(key))...)
		if _, dup := cm.BinaryData[key]; dup {
			errs = append(errs, field.Duplicate(dataPath.Key(key), key))
		}
		size += len(value)
	}
	for key, value := range cm.BinaryData {
		errs = append(errs, validateDataKey(key, binaryDataPath.Key(key))...)
		size += len(value)
	}
	if size > maxDataSize {
		errs = append(errs, field.TooLong(dataPath, "", maxDataSize))
	}
	return errs
}

// ValidateConfigMapUpdate checks an update of a ConfigMap: the new object in
// full, and, once the old one is immutable, that its data stays as it is.
func ValidateConfigMapUpdate(cm, old *corev1.ConfigMap) field.ErrorList {
	errs := apivalidation.ValidateObjectMetaUpdate(&cm.ObjectMeta, &old.ObjectMeta, metadataPath)
	errs = append(errs, validateConfigMapData(cm)...)
	if ptr.Deref(old.Immutable, false) {
		if !ptr.Deref(cm.Immutable, false) {
			errs = append(errs, field.Forbidden(immutablePath, immutableDataMsg))
		}
		if !apiequality.Semantic.DeepEqual(cm.Data, old.Data) {
			errs = append(errs, field.Forbidden(dataPath, immutableDataMsg))
		}
		if !apiequality.Semantic.DeepEqual(cm.BinaryData, old.BinaryData) {
			errs = append(errs, field.Forbidden(binaryDataPath, immutableDataMsg))
		}
	}
	return errs
}

// ValidateSecret checks a new Secret: valid keys, at most 1 MiB of values,
// and the keys its type requires.
func ValidateSecret(s *corev1.Secret) field.ErrorList {
	errs := apivalidation.ValidateObjectMeta(&s.ObjectMeta, true, apivalidation.NameIsDNSSubdomain, metadataPath)
	return append(errs, validateSecretData(s)...)
}

func validateSecretData(s *corev1.Secret) field.ErrorList {
	var errs field.ErrorList
	size := 0
	for key, value := range s.Data {
		errs = append(errs, validateDataKey(key, dataPath.Key(key))...)
		size += len(value)
	}
	for key := range s.StringData {
		errs = append(errs, validateDataKey(key, field.NewPath("stringData").Key(key))...)
	}
	if size > maxDataSize {
		errs = append(errs, field.TooLong(dataPath, "", maxDataSize))
	}
	return append(errs, validateSecretType(s)...)
}

// validateSecretType checks the keys the well-known secret types require.
func validateSecretType(s *corev1.Secret) field.ErrorList {
	var errs field.ErrorList
	require := func(key string) {
		if _, ok := s.Data[key]; !ok {
			errs = append(errs, field.Required(dataPath.Key(key), ""))
		}
	}
	requireJSON := func(key string) {
		require(key)
		if v, ok := s.Data[key]; ok && !json.Valid(v) {
			errs = append(errs, field.Invalid(dataPath.Key(key), "<secret contents redacted>", "must be valid JSON"))
		}
	}
	switch s.Type {
	case corev1.SecretTypeServiceAccountToken:
		if s.Annotations[corev1.ServiceAccountNameKey] == "" {
			errs = append(errs, field.Required(metadataPath.Child("annotations").Key(corev1.ServiceAccountNameKey), ""))
		}
	case corev1.SecretTypeDockercfg:
		requireJSON(corev1.DockerConfigKey)
	case corev1.SecretTypeDockerConfigJson:
		requireJSON(corev1.DockerConfigJsonKey)
	case corev1.SecretTypeBasicAuth:
		_, user := s.Data[corev1.BasicAuthUsernameKey]
		_, password := s.Data[corev1.BasicAuthPasswordKey]
		if !user && !password {
			errs = append(errs, field.Required(dataPath.Key(corev1.BasicAuthUsernameKey), "or `password` is required"))
		}
	case corev1.SecretTypeSSHAuth:
		require(corev1.SSHAuthPrivateKey)
	case corev1.SecretTypeTLS:
		require(corev1.TLSCertKey)
		require(corev1.TLSPrivateKeyKey)
	}
	return errs
}

// ValidateSecretUpdate checks an update of a Secret: the new object in full,
// an unchanged type, and, once the old one is immutable, unchanged data.
func ValidateSecretUpdate(s, old *corev1.Secret) field.ErrorList {
	errs := apivalidation.ValidateObjectMetaUpdate(&s.ObjectMeta, &old.ObjectMeta, metadataPath)
	errs = append(errs, validateSecretData(s)...)
	errs = append(errs, immutable(s.Type, old.Type, field.NewPath("type"))...)
	if ptr.Deref(old.Immutable, false) {
		if !ptr.Deref(s.Immutable, false) {
			errs = append(errs, field.Forbidden(immutablePath, immutableDataMsg))
		}
		if !apiequality.Semantic.DeepEqual(s.Data, old.Data) {
			errs = append(errs, field.Forbidden(dataPath, immutableDataMsg))
		}
	}
	return errs
}

func validateDataKey(key string, fldPath *field.Path) field.ErrorList {
	return messages(fldPath, key, utilvalidation.IsConfigMapKey(key))
}
