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

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +genclient:nonNamespaced
// +genclient:noStatus
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceInterpreterWebhookConfiguration names webhooks that answer
// interpreter operations for the kinds their rules match: Karmada's second
// way, after Lua customizations, to teach mco a custom kind.
type ResourceInterpreterWebhookConfiguration struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Webhooks lists the webhooks with the kinds and operations each
	// answers.
	// +required
	Webhooks []ResourceInterpreterWebhook `json:"webhooks"`
}

// ResourceInterpreterWebhook is one webhook and what it answers.
type ResourceInterpreterWebhook struct {
	// Name is the webhook's fully qualified name, such as
	// "replicas.example.com".
	// +required
	Name string `json:"name"`

	// ClientConfig says how to reach the webhook: an https URL (mco calls
	// it, trusting caBundle or, without one, the system's roots), or a
	// Service (accepted, answered with an error when called: mco reaches
	// webhooks by URL).
	// +required
	ClientConfig admissionregistrationv1.WebhookClientConfig `json:"clientConfig"`

	// Rules say which operations on which kinds the webhook answers; it
	// answers an operation when any rule matches.
	// +optional
	Rules []RuleWithOperations `json:"rules,omitempty"`

	// TimeoutSeconds bounds one call, 1 to 30 seconds; 10 when unset.
	// +optional
	TimeoutSeconds *int32 `json:"timeoutSeconds,omitempty"`

	// InterpreterContextVersions are the ResourceInterpreterContext
	// versions the webhook understands, preferred first; mco uses the first
	// it knows (v1alpha1).
	// +required
	InterpreterContextVersions []string `json:"interpreterContextVersions"`
}

// RuleWithOperations is a set of operations and the kinds they apply to.
type RuleWithOperations struct {
	// Operations are the operations the webhook answers; "*" alone is all.
	// +required
	Operations []InterpreterOperation `json:"operations"`

	// Rule names the kinds.
	Rule `json:",inline"`
}

// Rule names kinds by API group, version and kind; "*" alone in a list
// matches all.
type Rule struct {
	// APIGroups are the groups; "" is the core group.
	// +required
	APIGroups []string `json:"apiGroups"`

	// APIVersions are the versions.
	// +required
	APIVersions []string `json:"apiVersions"`

	// Kinds are the kinds, such as "Deployment".
	// +required
	Kinds []string `json:"kinds"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceInterpreterWebhookConfigurationList is a list of
// ResourceInterpreterWebhookConfigurations.
type ResourceInterpreterWebhookConfigurationList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the configurations.
	Items []ResourceInterpreterWebhookConfiguration `json:"items"`
}
