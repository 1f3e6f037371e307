// Package validation checks addons.mco-org.github.io objects.
package validation

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/Masterminds/semver/v3"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	"github.com/mco-org/mco/pkg/clustervalues"
)

// maxReleaseName is Helm's limit on a release name.
const maxReleaseName = 53

// digestPattern is a chart archive's digest.
var digestPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// chartName is what Helm accepts as a chart's name in a repository.
var chartName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

var valuesKinds = sets.New(addonsv1alpha1.ValuesKindConfigMap, addonsv1alpha1.ValuesKindSecret)

// ValidateAddon checks an Addon (defaulted).
func ValidateAddon(a *addonsv1alpha1.Addon) field.ErrorList {
	errs := apivalidation.ValidateObjectMeta(&a.ObjectMeta, false, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateSpec(&a.Spec, a.Name, field.NewPath("spec"))...)
}

func validateSpec(spec *addonsv1alpha1.AddonSpec, self string, p *field.Path) field.ErrorList {
	errs := validateChart(&spec.Chart, p.Child("chart"))
	errs = append(errs, validateRelease(&spec.Release, p.Child("release"))...)
	errs = append(errs, validateValues(spec.Values, p.Child("values"))...)
	for i := range spec.ValuesFrom {
		errs = append(errs, validateValuesReference(&spec.ValuesFrom[i], p.Child("valuesFrom").Index(i))...)
	}
	for i := range spec.Overrides {
		errs = append(errs, validateOverride(&spec.Overrides[i], p.Child("overrides").Index(i))...)
	}
	depends := validateReferences(spec.DependsOn, self, "depend on", p.Child("dependsOn"), &errs)
	validateReferences(spec.ConflictsWith, self, "conflict with", p.Child("conflictsWith"), &errs)
	for i, r := range spec.ConflictsWith {
		if depends.Has(r.Name) {
			errs = append(errs, field.Invalid(p.Child("conflictsWith").Index(i).Child("name"), r.Name,
				"an add-on cannot both depend on and conflict with "+r.Name))
		}
	}
	if spec.KubeVersion != "" {
		if _, err := semver.NewConstraint(spec.KubeVersion); err != nil {
			errs = append(errs, field.Invalid(p.Child("kubeVersion"), spec.KubeVersion, "not a semantic version range: "+err.Error()))
		}
	}
	return errs
}

func validateChart(c *addonsv1alpha1.ChartSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch u, err := url.Parse(c.Repository); {
	case c.Repository == "":
		errs = append(errs, field.Required(p.Child("repository"), "an http(s):// Helm repository or an oci:// registry"))
	case err != nil:
		errs = append(errs, field.Invalid(p.Child("repository"), c.Repository, err.Error()))
	case u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "oci":
		errs = append(errs, field.Invalid(p.Child("repository"), c.Repository, "must start with http://, https:// or oci://"))
	case u.Host == "":
		errs = append(errs, field.Invalid(p.Child("repository"), c.Repository, "names no host"))
	case u.User != nil:
		errs = append(errs, field.Invalid(p.Child("repository"), u.Redacted(), "must not carry credentials: use secretRef"))
	}
	if c.PlainHTTP && !strings.HasPrefix(c.Repository, "oci://") {
		errs = append(errs, field.Invalid(p.Child("plainHTTP"), c.PlainHTTP, "applies to oci:// registries only (an http:// repository is plain already)"))
	}
	switch {
	case c.Name == "":
		errs = append(errs, field.Required(p.Child("name"), "the chart's name in the repository"))
	case !chartName.MatchString(c.Name):
		errs = append(errs, field.Invalid(p.Child("name"), c.Name, "a chart name: letters, digits, '-', '_' and '.', starting with a letter or digit"))
	}
	switch {
	case c.Version == "":
		errs = append(errs, field.Required(p.Child("version"), "an exact chart version, such as 2.1.0"))
	default:
		if _, err := semver.StrictNewVersion(strings.TrimPrefix(c.Version, "v")); err != nil {
			errs = append(errs, field.Invalid(p.Child("version"), c.Version, "an exact semantic version (such as 2.1.0), not a range: "+err.Error()))
		}
	}
	if c.Digest != "" && !digestPattern.MatchString(c.Digest) {
		errs = append(errs, field.Invalid(p.Child("digest"), c.Digest, `"sha256:" and 64 lowercase hexadecimal digits`))
	}
	if r := c.SecretRef; r != nil {
		errs = append(errs, validateObjectName(r.Namespace, r.Name, p.Child("secretRef"))...)
	}
	return errs
}

func validateRelease(r *addonsv1alpha1.Release, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range validation.IsDNS1123Subdomain(r.Name) {
		errs = append(errs, field.Invalid(p.Child("name"), r.Name, msg))
	}
	if len(r.Name) > maxReleaseName {
		errs = append(errs, field.TooLong(p.Child("name"), r.Name, maxReleaseName))
	}
	for _, msg := range validation.IsDNS1123Label(r.Namespace) {
		errs = append(errs, field.Invalid(p.Child("namespace"), r.Namespace, msg))
	}
	return errs
}

func validateValuesReference(r *addonsv1alpha1.ValuesReference, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if !valuesKinds.Has(r.Kind) {
		errs = append(errs, field.NotSupported(p.Child("kind"), r.Kind, sets.List(valuesKinds)))
	}
	errs = append(errs, validateObjectName(r.Namespace, r.Name, p)...)
	for _, msg := range validation.IsConfigMapKey(r.Key) {
		errs = append(errs, field.Invalid(p.Child("key"), r.Key, msg))
	}
	return errs
}

func validateOverride(o *addonsv1alpha1.ValuesOverride, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if o.ClusterSelector == nil && len(o.ClusterNames) == 0 {
		errs = append(errs, field.Required(p, "clusterSelector or clusterNames: an override names the clusters it is for"))
	}
	if o.ClusterSelector != nil {
		errs = append(errs, metav1validation.ValidateLabelSelector(o.ClusterSelector,
			metav1validation.LabelSelectorValidationOptions{}, p.Child("clusterSelector"))...)
	}
	for i, name := range o.ClusterNames {
		for _, msg := range validation.IsDNS1123Subdomain(name) {
			errs = append(errs, field.Invalid(p.Child("clusterNames").Index(i), name, msg))
		}
	}
	if o.Values == nil {
		return append(errs, field.Required(p.Child("values"), "the values for the matched clusters"))
	}
	return append(errs, validateValues(o.Values, p.Child("values"))...)
}

// validateReferences checks names of other Addons: valid, not the Addon
// itself, not repeated. It returns the names.
func validateReferences(refs []addonsv1alpha1.AddonReference, self, verb string, p *field.Path, errs *field.ErrorList) sets.Set[string] {
	names := sets.New[string]()
	for i, r := range refs {
		np := p.Index(i).Child("name")
		for _, msg := range validation.IsDNS1123Subdomain(r.Name) {
			*errs = append(*errs, field.Invalid(np, r.Name, msg))
		}
		switch {
		case r.Name == self:
			*errs = append(*errs, field.Invalid(np, r.Name, "an add-on cannot "+verb+" itself"))
		case names.Has(r.Name):
			*errs = append(*errs, field.Duplicate(np, r.Name))
		}
		names.Insert(r.Name)
	}
	return names
}

func validateObjectName(namespace, name string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range validation.IsDNS1123Label(namespace) {
		errs = append(errs, field.Invalid(p.Child("namespace"), namespace, msg))
	}
	for _, msg := range validation.IsDNS1123Subdomain(name) {
		errs = append(errs, field.Invalid(p.Child("name"), name, msg))
	}
	return errs
}

// validateValues checks that values are a JSON object whose string values
// hold only known placeholders.
func validateValues(v *apiextensionsv1.JSON, p *field.Path) field.ErrorList {
	if v == nil || len(v.Raw) == 0 {
		return nil
	}
	var values any
	if err := json.Unmarshal(v.Raw, &values); err != nil {
		return field.ErrorList{field.Invalid(p, string(v.Raw), "not JSON: "+err.Error())}
	}
	m, ok := values.(map[string]any)
	if !ok {
		return field.ErrorList{field.Invalid(p, string(v.Raw), "values are an object of keys, as in a values.yaml")}
	}
	return walkStrings(m, p)
}

// walkStrings checks every string under v for placeholders.
func walkStrings(v any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sets.List(sets.KeySet(x)) {
			errs = append(errs, walkStrings(x[k], p.Key(k))...)
		}
	case []any:
		for i, e := range x {
			errs = append(errs, walkStrings(e, p.Index(i))...)
		}
	case string:
		if err := clustervalues.Check(x); err != nil {
			errs = append(errs, field.Invalid(p, x, fmt.Sprintf("placeholder: %v", err)))
		}
	}
	return errs
}
