package validation

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
)

// valid is the example Addon, defaulted.
func valid() *addonsv1alpha1.Addon {
	a := &addonsv1alpha1.Addon{
		ObjectMeta: metav1.ObjectMeta{Name: "log-collector"},
		Spec: addonsv1alpha1.AddonSpec{
			Chart: addonsv1alpha1.ChartSource{Repository: "https://charts.example.com/stable", Name: "log-collector", Version: "2.1.0",
				Digest:    "sha256:" + strings.Repeat("ab", 32),
				SecretRef: &addonsv1alpha1.SecretReference{Namespace: "platform", Name: "repo-creds"}},
			Release: addonsv1alpha1.Release{Namespace: "logging", CreateNamespace: true},
			Values:  &apiextensionsv1.JSON{Raw: []byte(`{"replicaCount":3,"region":"${cluster.region}","zones":["${cluster.labels['zone']}"]}`)},
			ValuesFrom: []addonsv1alpha1.ValuesReference{
				{Kind: "ConfigMap", Namespace: "platform", Name: "lc-values", Key: "values.yaml"},
				{Kind: "Secret", Namespace: "platform", Name: "lc-secret-values", Optional: true},
			},
			Overrides: []addonsv1alpha1.ValuesOverride{{
				ClusterSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"size": "large"}},
				Values:          &apiextensionsv1.JSON{Raw: []byte(`{"replicaCount":5}`)},
			}, {ClusterNames: []string{"member1"}, Values: &apiextensionsv1.JSON{Raw: []byte(`{}`)}}},
			DependsOn:     []addonsv1alpha1.AddonReference{{Name: "base-config"}},
			ConflictsWith: []addonsv1alpha1.AddonReference{{Name: "legacy-monitor"}},
			KubeVersion:   ">=1.33.0-0",
		},
	}
	a.SetDefaults()
	return a
}

func TestValidateAddon(t *testing.T) {
	tests := []struct {
		name   string
		change func(a *addonsv1alpha1.Addon)
		want   []string // fields of the errors, in order; none for a valid Addon
	}{
		{name: "the example is valid", change: func(*addonsv1alpha1.Addon) {}},
		{name: "an OCI registry is a repository", change: func(a *addonsv1alpha1.Addon) {
			a.Spec.Chart.Repository, a.Spec.Chart.PlainHTTP = "oci://127.0.0.1:5000/charts", true
		}},
		{name: "a version with a leading v is exact too", change: func(a *addonsv1alpha1.Addon) { a.Spec.Chart.Version = "v2.1.0" }},
		{name: "no chart at all", change: func(a *addonsv1alpha1.Addon) { a.Spec.Chart = addonsv1alpha1.ChartSource{} },
			want: []string{"spec.chart.repository", "spec.chart.name", "spec.chart.version"}},
		{name: "a repository of another scheme", change: func(a *addonsv1alpha1.Addon) { a.Spec.Chart.Repository = "ftp://charts.example.com" },
			want: []string{"spec.chart.repository"}},
		{name: "credentials in the repository address", change: func(a *addonsv1alpha1.Addon) {
			a.Spec.Chart.Repository = "https://user:secret@charts.example.com"
		}, want: []string{"spec.chart.repository"}},
		{name: "plainHTTP for an http repository", change: func(a *addonsv1alpha1.Addon) { a.Spec.Chart.PlainHTTP = true },
			want: []string{"spec.chart.plainHTTP"}},
		{name: "a version range is not a version", change: func(a *addonsv1alpha1.Addon) { a.Spec.Chart.Version = "^2.1" },
			want: []string{"spec.chart.version"}},
		{name: "a short version is not exact", change: func(a *addonsv1alpha1.Addon) { a.Spec.Chart.Version = "2.1" },
			want: []string{"spec.chart.version"}},
		{name: "a digest of another algorithm", change: func(a *addonsv1alpha1.Addon) { a.Spec.Chart.Digest = "md5:abc" },
			want: []string{"spec.chart.digest"}},
		{name: "a secretRef without a namespace", change: func(a *addonsv1alpha1.Addon) { a.Spec.Chart.SecretRef.Namespace = "" },
			want: []string{"spec.chart.secretRef.namespace"}},
		{name: "a release name longer than Helm allows", change: func(a *addonsv1alpha1.Addon) { a.Spec.Release.Name = strings.Repeat("a", 54) },
			want: []string{"spec.release.name"}},
		{name: "a release namespace that is no namespace", change: func(a *addonsv1alpha1.Addon) { a.Spec.Release.Namespace = "Logging" },
			want: []string{"spec.release.namespace"}},
		{name: "values that are a list", change: func(a *addonsv1alpha1.Addon) { a.Spec.Values.Raw = []byte(`[1,2]`) },
			want: []string{"spec.values"}},
		{name: "an unknown placeholder, named where it is", change: func(a *addonsv1alpha1.Addon) {
			a.Spec.Values.Raw = []byte(`{"a":{"b":["ok","${cluster.zone}"]}}`)
		}, want: []string{"spec.values[a][b][1]"}},
		{name: "an unknown placeholder in an override", change: func(a *addonsv1alpha1.Addon) {
			a.Spec.Overrides[0].Values.Raw = []byte(`{"region":"${cluster.regoin}"}`)
		}, want: []string{"spec.overrides[0].values[region]"}},
		{name: "values from an unknown kind", change: func(a *addonsv1alpha1.Addon) { a.Spec.ValuesFrom[0].Kind = "Pod" },
			want: []string{"spec.valuesFrom[0].kind"}},
		{name: "values from a bad key", change: func(a *addonsv1alpha1.Addon) { a.Spec.ValuesFrom[1].Key = "a/b" },
			want: []string{"spec.valuesFrom[1].key"}},
		{name: "an override for no cluster", change: func(a *addonsv1alpha1.Addon) { a.Spec.Overrides[1].ClusterNames = nil },
			want: []string{"spec.overrides[1]"}},
		{name: "an override without values", change: func(a *addonsv1alpha1.Addon) { a.Spec.Overrides[0].Values = nil },
			want: []string{"spec.overrides[0].values"}},
		{name: "an override with a bad selector", change: func(a *addonsv1alpha1.Addon) {
			a.Spec.Overrides[0].ClusterSelector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "size", Operator: "Near"}}}
		}, want: []string{"spec.overrides[0].clusterSelector.matchExpressions[0].operator"}},
		{name: "an add-on depending on itself", change: func(a *addonsv1alpha1.Addon) {
			a.Spec.DependsOn = append(a.Spec.DependsOn, addonsv1alpha1.AddonReference{Name: "log-collector"})
		}, want: []string{"spec.dependsOn[1].name"}},
		{name: "a dependency named twice", change: func(a *addonsv1alpha1.Addon) {
			a.Spec.DependsOn = append(a.Spec.DependsOn, addonsv1alpha1.AddonReference{Name: "base-config"})
		}, want: []string{"spec.dependsOn[1].name"}},
		{name: "an add-on conflicting with what it depends on", change: func(a *addonsv1alpha1.Addon) {
			a.Spec.ConflictsWith = append(a.Spec.ConflictsWith, addonsv1alpha1.AddonReference{Name: "base-config"})
		}, want: []string{"spec.conflictsWith[1].name"}},
		{name: "a malformed version range", change: func(a *addonsv1alpha1.Addon) { a.Spec.KubeVersion = ">=1.33 <<2" },
			want: []string{"spec.kubeVersion"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := valid()
			tt.change(a)
			errs := ValidateAddon(a)
			var got []string
			for _, e := range errs {
				got = append(got, e.Field)
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("errors on %v, want on %v:\n%v", got, tt.want, errs.ToAggregate())
			}
		})
	}
}

func TestSetDefaults(t *testing.T) {
	a := &addonsv1alpha1.Addon{ObjectMeta: metav1.ObjectMeta{Name: "cert-manager"},
		Spec: addonsv1alpha1.AddonSpec{ValuesFrom: []addonsv1alpha1.ValuesReference{{Kind: "ConfigMap"}}}}
	a.SetDefaults()
	if r := a.Spec.Release; r.Name != "cert-manager" || r.Namespace != "default" || a.Spec.ValuesFrom[0].Key != "values.yaml" {
		t.Errorf("defaults: release %+v, key %q", r, a.Spec.ValuesFrom[0].Key)
	}
}
