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
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
)

func validConfigMap() *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: objectMeta("web-config"),
		Data:       map[string]string{"nginx.conf": "events {}", "MODE": "prod"},
		BinaryData: map[string][]byte{"logo.png": {0x89, 'P', 'N', 'G'}},
	}
}

func TestValidateConfigMap(t *testing.T) {
	t.Parallel()
	runCases(t, validConfigMap, ValidateConfigMap, []testCase[*corev1.ConfigMap]{
		{name: "A config map with text and binary entries is valid.", mutate: noChange[*corev1.ConfigMap]},
		{name: "An empty config map is valid.", mutate: func(cm *corev1.ConfigMap) { cm.Data, cm.BinaryData = nil, nil }},
		{name: "Keys with a slash or that are only dots are invalid.", mutate: func(cm *corev1.ConfigMap) {
			cm.Data["a/b"] = "x"
			cm.BinaryData[".."] = nil
		}, want: []wantErr{invalid("data[a/b]"), invalid("binaryData[..]")}},
		{name: "A key in both data and binaryData is a duplicate.", mutate: func(cm *corev1.ConfigMap) {
			cm.BinaryData["MODE"] = []byte("prod")
		}, want: []wantErr{duplicate("data[MODE]")}},
		{name: "Exactly 1 MiB of values is valid.", mutate: func(cm *corev1.ConfigMap) {
			cm.BinaryData = nil
			cm.Data = map[string]string{"a": strings.Repeat("x", 1<<20-4), "b": "four"}
		}},
		{name: "More than 1 MiB of values across data and binaryData is too long.", mutate: func(cm *corev1.ConfigMap) {
			cm.Data = map[string]string{"a": strings.Repeat("x", 1<<20-3)} // plus 4 bytes of binaryData
		}, want: []wantErr{fe(field.ErrorTypeTooLong, "data")}},
		{name: "A config map name with upper case is invalid.", mutate: func(cm *corev1.ConfigMap) { cm.Name = "Web" },
			want: []wantErr{invalid("metadata.name")}},
	})
}

func TestValidateConfigMapUpdate(t *testing.T) {
	t.Parallel()
	immutable := func() *corev1.ConfigMap {
		cm := validConfigMap()
		cm.Immutable = ptr.To(true)
		return cm
	}
	runUpdateCases(t, validConfigMap, ValidateConfigMapUpdate, []updateCase[*corev1.ConfigMap]{
		{name: "Changing the data of a mutable config map is valid.", mutate: func(cm, _ *corev1.ConfigMap) { cm.Data["MODE"] = "dev" }},
		{name: "Making a config map immutable is valid.", mutate: func(cm, _ *corev1.ConfigMap) { cm.Immutable = ptr.To(true) }},
		{name: "A bad key is rejected on update too.", mutate: func(cm, _ *corev1.ConfigMap) { cm.Data["a b"] = "" },
			want: []wantErr{invalid("data[a b]")}},
	})
	runUpdateCases(t, immutable, ValidateConfigMapUpdate, []updateCase[*corev1.ConfigMap]{
		{name: "Relabelling an immutable config map is valid.", mutate: func(cm, _ *corev1.ConfigMap) { cm.Labels = map[string]string{"a": "b"} }},
		{name: "Changing data or binaryData of an immutable config map is forbidden.", mutate: func(cm, _ *corev1.ConfigMap) {
			cm.Data["MODE"] = "dev"
			delete(cm.BinaryData, "logo.png")
		}, want: []wantErr{forbidden("data"), forbidden("binaryData")}},
		{name: "An immutable config map cannot become mutable again.", mutate: func(cm, _ *corev1.ConfigMap) { cm.Immutable = nil },
			want: []wantErr{forbidden("immutable")}},
	})
}

func validSecret() *corev1.Secret {
	return &corev1.Secret{ObjectMeta: objectMeta("db"), Type: corev1.SecretTypeOpaque,
		Data: map[string][]byte{"password": []byte("s3cr3t"), "user.name": []byte("admin")}}
}

func TestValidateSecret(t *testing.T) {
	t.Parallel()
	typed := func(typ corev1.SecretType, data map[string][]byte) func(*corev1.Secret) {
		return func(s *corev1.Secret) { s.Type, s.Data = typ, data }
	}
	runCases(t, validSecret, ValidateSecret, []testCase[*corev1.Secret]{
		{name: "An opaque secret is valid.", mutate: noChange[*corev1.Secret]},
		{name: "A secret of a custom type is valid.", mutate: typed("example.com/token", nil)},
		{name: "A key with a space is invalid.", mutate: func(s *corev1.Secret) { s.Data["bad key"] = nil },
			want: []wantErr{invalid("data[bad key]")}},
		{name: "A stringData key that was not folded into data yet is checked too.", mutate: func(s *corev1.Secret) {
			s.StringData = map[string]string{"a/b": "x"}
		}, want: []wantErr{invalid("stringData[a/b]")}},
		{name: "More than 1 MiB of data is too long.", mutate: func(s *corev1.Secret) {
			s.Data["big"] = make([]byte, 1<<20)
		}, want: []wantErr{fe(field.ErrorTypeTooLong, "data")}},
		{name: "A TLS secret with its certificate and key is valid.", mutate: typed(corev1.SecretTypeTLS,
			map[string][]byte{"tls.crt": []byte("c"), "tls.key": []byte("k")})},
		{name: "A TLS secret without a key is missing it.", mutate: typed(corev1.SecretTypeTLS, map[string][]byte{"tls.crt": []byte("c")}),
			want: []wantErr{required("data[tls.key]")}},
		{name: "A docker config JSON secret with valid JSON is valid.", mutate: typed(corev1.SecretTypeDockerConfigJson,
			map[string][]byte{".dockerconfigjson": []byte(`{"auths":{}}`)})},
		{name: "A docker config JSON secret holding no JSON is invalid.", mutate: typed(corev1.SecretTypeDockerConfigJson,
			map[string][]byte{".dockerconfigjson": []byte("{")}),
			want: []wantErr{invalid("data[.dockerconfigjson]")}},
		{name: "A legacy docker config secret without its key is missing it.", mutate: typed(corev1.SecretTypeDockercfg, nil),
			want: []wantErr{required("data[.dockercfg]")}},
		{name: "A basic auth secret with only a password is valid.", mutate: typed(corev1.SecretTypeBasicAuth,
			map[string][]byte{"password": []byte("p")})},
		{name: "A basic auth secret with neither username nor password is missing them.", mutate: typed(corev1.SecretTypeBasicAuth, nil),
			want: []wantErr{required("data[username]")}},
		{name: "An SSH auth secret without a private key is missing it.", mutate: typed(corev1.SecretTypeSSHAuth, nil),
			want: []wantErr{required("data[ssh-privatekey]")}},
		{name: "A service account token secret must name its service account.", mutate: typed(corev1.SecretTypeServiceAccountToken, nil),
			want: []wantErr{required("metadata.annotations[kubernetes.io/service-account.name]")}},
	})
}

func TestValidateSecretUpdate(t *testing.T) {
	t.Parallel()
	immutable := func() *corev1.Secret {
		s := validSecret()
		s.Immutable = ptr.To(true)
		return s
	}
	runUpdateCases(t, validSecret, ValidateSecretUpdate, []updateCase[*corev1.Secret]{
		{name: "Rotating the password of a mutable secret is valid.", mutate: func(s, _ *corev1.Secret) { s.Data["password"] = []byte("n3w") }},
		{name: "Changing the type of a secret is invalid.", mutate: func(s, _ *corev1.Secret) { s.Type = "example.com/other" },
			want: []wantErr{invalid("type")}},
	})
	runUpdateCases(t, immutable, ValidateSecretUpdate, []updateCase[*corev1.Secret]{
		{name: "Changing the data of an immutable secret is forbidden.", mutate: func(s, _ *corev1.Secret) { s.Data["password"] = []byte("n3w") },
			want: []wantErr{forbidden("data")}},
		{name: "An immutable secret cannot become mutable again.", mutate: func(s, _ *corev1.Secret) { s.Immutable = ptr.To(false) },
			want: []wantErr{forbidden("immutable")}},
	})
}
