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
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Webhooks lists the webhooks with the kinds and operations each
	// answers.
	// +required
	Webhooks ResourceInterpreterWebhooks `json:"webhooks" protobuf:"bytes,2,opt,name=webhooks"`
}

// ResourceInterpreterWebhook is one webhook and what it answers.
type ResourceInterpreterWebhook struct {
	// Name is the webhook's fully qualified name, such as
	// "replicas.example.com".
	// +required
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`

	// ClientConfig says how to reach the webhook: an https URL (mco calls
	// it, trusting caBundle or, without one, the system's roots), or a
	// Service (accepted, answered with an error when called: mco reaches
	// webhooks by URL).
	// +required
	ClientConfig admissionregistrationv1.WebhookClientConfig `json:"clientConfig" protobuf:"bytes,2,opt,name=clientConfig"`

	// Rules say which operations on which kinds the webhook answers; it
	// answers an operation when any rule matches.
	// +optional
	Rules []RuleWithOperations `json:"rules,omitempty" protobuf:"bytes,3,rep,name=rules"`

	// TimeoutSeconds bounds one call, 1 to 30 seconds; 10 when unset.
	// +optional
	TimeoutSeconds *int32 `json:"timeoutSeconds,omitempty" protobuf:"varint,4,opt,name=timeoutSeconds"`

	// InterpreterContextVersions are the ResourceInterpreterContext
	// versions the webhook understands, preferred first; mco uses the first
	// it knows (v1alpha1).
	// +required
	InterpreterContextVersions []string `json:"interpreterContextVersions" protobuf:"bytes,5,rep,name=interpreterContextVersions"`
}

// RuleWithOperations is a set of operations and the kinds they apply to.
type RuleWithOperations struct {
	// Operations are the operations the webhook answers; "*" alone is all.
	// +required
	Operations []InterpreterOperation `json:"operations" protobuf:"bytes,1,rep,name=operations,casttype=InterpreterOperation"`

	// Rule names the kinds.
	Rule `json:",inline" protobuf:"bytes,2,opt,name=rule"`
}

// Rule names kinds by API group, version and kind; "*" alone in a list
// matches all.
type Rule struct {
	// APIGroups are the groups; "" is the core group.
	// +required
	APIGroups []string `json:"apiGroups" protobuf:"bytes,1,rep,name=apiGroups"`

	// APIVersions are the versions.
	// +required
	APIVersions []string `json:"apiVersions" protobuf:"bytes,2,rep,name=apiVersions"`

	// Kinds are the kinds, such as "Deployment".
	// +required
	Kinds []string `json:"kinds" protobuf:"bytes,3,rep,name=kinds"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceInterpreterWebhookConfigurationList is a list of
// ResourceInterpreterWebhookConfigurations.
type ResourceInterpreterWebhookConfigurationList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the configurations.
	Items []ResourceInterpreterWebhookConfiguration `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// ResourceInterpreterWebhooks is a list of webhooks in which an empty list
// and a missing one stay apart, in protobuf as in JSON.
// +protobuf.nullable=true
// +protobuf.options.(gogoproto.goproto_stringer)=false
type ResourceInterpreterWebhooks []ResourceInterpreterWebhook
