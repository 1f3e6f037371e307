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

// Package validation checks cluster.karmada.io objects the way Karmada's aggregated apiserver
// does. Every function is pure and reports problems as a field.ErrorList with exact paths.
package validation

import (
	"fmt"
	"net/url"
	"strings"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

// MaxClusterNameLength is the longest cluster name accepted. Every cluster gets an execution
// namespace named "karmada-es-<name>", and a namespace name is a DNS label of at most 63
// characters, so Karmada keeps 15 characters in reserve for the prefix and its own margin.
const MaxClusterNameLength = 48

var supportedSyncModes = []string{string(clusterv1alpha1.Push), string(clusterv1alpha1.Pull)}

// ValidateClusterName reports why name cannot name a Cluster: it must be a non-empty DNS-1123
// label of at most MaxClusterNameLength characters. With prefix set, name is a generateName
// prefix and may end in a dash.
func ValidateClusterName(name string, prefix bool) []string {
	if name == "" {
		return []string{"must not be empty"}
	}
	if len(name) > MaxClusterNameLength {
		return []string{fmt.Sprintf("must be no more than %d characters", MaxClusterNameLength)}
	}
	if prefix && strings.HasSuffix(name, "-") {
		// A generated suffix will follow, so judge the prefix as if it ended in a letter.
		name = name[:len(name)-1] + "a"
	}
	return utilvalidation.IsDNS1123Label(name)
}

// ValidateCluster checks a Cluster on create. Call it after defaulting, as the apiserver does.
func ValidateCluster(cluster *clusterv1alpha1.Cluster) field.ErrorList {
	allErrs := apivalidation.ValidateObjectMeta(&cluster.ObjectMeta, false, ValidateClusterName, field.NewPath("metadata"))
	return append(allErrs, ValidateClusterSpec(&cluster.Spec, field.NewPath("spec"))...)
}

// ValidateClusterUpdate checks a Cluster on update: the metadata rules for updates plus every
// create rule on the new object. Karmada has no immutable spec fields, and neither do we.
func ValidateClusterUpdate(newCluster, oldCluster *clusterv1alpha1.Cluster) field.ErrorList {
	allErrs := apivalidation.ValidateObjectMetaUpdate(&newCluster.ObjectMeta, &oldCluster.ObjectMeta, field.NewPath("metadata"))
	return append(allErrs, ValidateCluster(newCluster)...)
}

// ValidateClusterSpec checks a ClusterSpec found at fldPath.
func ValidateClusterSpec(spec *clusterv1alpha1.ClusterSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList

	switch spec.SyncMode {
	case "":
		allErrs = append(allErrs, field.Required(fldPath.Child("syncMode"), "must be Push or Pull"))
	case clusterv1alpha1.Push, clusterv1alpha1.Pull:
	default:
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("syncMode"), spec.SyncMode, supportedSyncModes))
	}

	if spec.APIEndpoint != "" {
		allErrs = append(allErrs, validateAPIEndpoint(spec.APIEndpoint, fldPath.Child("apiEndpoint"))...)
	}
	allErrs = append(allErrs, validateSecretRef(spec.SecretRef, fldPath.Child("secretRef"))...)
	allErrs = append(allErrs, validateSecretRef(spec.ImpersonatorSecretRef, fldPath.Child("impersonatorSecretRef"))...)
	if spec.ProxyURL != "" {
		allErrs = append(allErrs, validateProxyURL(spec.ProxyURL, fldPath.Child("proxyURL"))...)
	}

	allErrs = append(allErrs, validateLocation(spec, fldPath)...)
	allErrs = append(allErrs, validateTaints(spec.Taints, fldPath.Child("taints"))...)
	allErrs = append(allErrs, validateResourceModels(spec.ResourceModels, fldPath.Child("resourceModels"))...)
	return allErrs
}

// validateAPIEndpoint accepts an absolute URL with a host and nothing a client would silently
// drop or leak: no user info, no query and no fragment.
func validateAPIEndpoint(endpoint string, fldPath *field.Path) field.ErrorList {
	u, err := url.Parse(endpoint)
	if err != nil {
		return field.ErrorList{field.Invalid(fldPath, endpoint, "must be a valid URL: "+err.Error())}
	}
	var allErrs field.ErrorList
	if u.Host == "" {
		allErrs = append(allErrs, field.Invalid(fldPath, endpoint, "must include a host, as in https://host:port"))
	}
	if u.User != nil {
		allErrs = append(allErrs, field.Invalid(fldPath, endpoint, "must not contain user information"))
	}
	if u.RawQuery != "" {
		allErrs = append(allErrs, field.Invalid(fldPath, endpoint, "must not contain query parameters"))
	}
	if u.Fragment != "" {
		allErrs = append(allErrs, field.Invalid(fldPath, endpoint, "must not contain a fragment"))
	}
	return allErrs
}

// validateProxyURL accepts any URL whose scheme is http, https or socks5.
func validateProxyURL(proxyURL string, fldPath *field.Path) field.ErrorList {
	u, err := url.Parse(proxyURL)
	if err != nil {
		return field.ErrorList{field.Invalid(fldPath, proxyURL, "must be a valid URL: "+err.Error())}
	}
	switch u.Scheme {
	case "http", "https", "socks5":
		return nil
	default:
		return field.ErrorList{field.Invalid(fldPath, proxyURL,
			fmt.Sprintf("unsupported scheme %q: must be http, https or socks5", u.Scheme))}
	}
}

func validateSecretRef(ref *clusterv1alpha1.LocalSecretReference, fldPath *field.Path) field.ErrorList {
	if ref == nil {
		return nil
	}
	var allErrs field.ErrorList
	if ref.Namespace == "" {
		allErrs = append(allErrs, field.Required(fldPath.Child("namespace"), ""))
	}
	if ref.Name == "" {
		allErrs = append(allErrs, field.Required(fldPath.Child("name"), ""))
	}
	return allErrs
}

// validateLocation checks provider, region, zone and zones. Policies select clusters by these
// fields through a field selector that is evaluated as a label selector, so each value must be a
// valid label value. The deprecated zone may not be combined with zones.
func validateLocation(spec *clusterv1alpha1.ClusterSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	labelValue := func(value string, p *field.Path) {
		for _, msg := range utilvalidation.IsValidLabelValue(value) {
			allErrs = append(allErrs, field.Invalid(p, value, msg))
		}
	}
	labelValue(spec.Provider, fldPath.Child("provider"))
	labelValue(spec.Region, fldPath.Child("region"))
	labelValue(spec.Zone, fldPath.Child("zone"))
	for i, zone := range spec.Zones {
		labelValue(zone, fldPath.Child("zones").Index(i))
	}
	if spec.Zone != "" && len(spec.Zones) != 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("zone"),
			"may not be set together with zones; zone is deprecated, list the zone in zones instead"))
	}
	return allErrs
}
