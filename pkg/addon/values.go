package addon

import (
	"encoding/json"
	"fmt"
	"sort"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/clustervalues"
)

// Layer is one source of values, in the order they apply.
type Layer struct {
	// Source names the layer for people: "spec.values",
	// "spec.valuesFrom[0] (ConfigMap platform/lc-values)",
	// "spec.overrides[1]".
	Source string
	Values map[string]any
	// Secret: the values come from a Secret.
	Secret bool
}

// Merged are the values one cluster gets, which layer last set each
// top-level key, and which of those keys a Secret set.
type Merged struct {
	Values     map[string]any
	SetBy      map[string]string
	FromSecret map[string]bool
}

// Merge combines layers in order as Helm combines several values files:
// maps merge key by key, at any depth; anything else (lists included) is
// replaced by the later layer; a null is kept, so that the chart's default
// for that key is removed when Helm coalesces the values with the chart's
// own. The layers are not changed.
func Merge(layers ...Layer) Merged {
	m := Merged{Values: map[string]any{}, SetBy: map[string]string{}, FromSecret: map[string]bool{}}
	for _, l := range layers {
		for k, v := range l.Values {
			m.Values[k] = mergeValue(m.Values[k], v)
			m.SetBy[k] = l.Source
			m.FromSecret[k] = l.Secret
		}
	}
	return m
}

// mergeValue lays over on top of base.
func mergeValue(base, over any) any {
	bm, ok1 := base.(map[string]any)
	om, ok2 := over.(map[string]any)
	if !ok1 || !ok2 {
		return deepCopy(over)
	}
	out := make(map[string]any, len(bm)+len(om))
	for k, v := range bm {
		out[k] = v
	}
	for k, v := range om {
		out[k] = mergeValue(out[k], v)
	}
	return out
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}

// Overrides returns, in order, the layers of the spec's overrides that
// match the cluster: every matching entry applies. An entry with a
// selector and names must match both.
func Overrides(spec *addonsv1alpha1.AddonSpec, cluster *clusterv1alpha1.Cluster) ([]Layer, error) {
	var out []Layer
	for i, o := range spec.Overrides {
		match, err := matches(&o, cluster)
		if err != nil {
			return nil, fmt.Errorf("spec.overrides[%d]: %w", i, err)
		}
		if !match {
			continue
		}
		values, err := Decode(o.Values)
		if err != nil {
			return nil, fmt.Errorf("spec.overrides[%d].values: %w", i, err)
		}
		out = append(out, Layer{Source: fmt.Sprintf("spec.overrides[%d]", i), Values: values})
	}
	return out, nil
}

func matches(o *addonsv1alpha1.ValuesOverride, cluster *clusterv1alpha1.Cluster) (bool, error) {
	if len(o.ClusterNames) > 0 && !contains(o.ClusterNames, cluster.Name) {
		return false, nil
	}
	if o.ClusterSelector == nil {
		return len(o.ClusterNames) > 0, nil
	}
	sel, err := metav1.LabelSelectorAsSelector(o.ClusterSelector)
	if err != nil {
		return false, fmt.Errorf("clusterSelector: %w", err)
	}
	return sel.Matches(labels.Set(cluster.Labels)), nil
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// Decode reads values given as JSON (spec.values, an override's values);
// none is an empty map.
func Decode(raw *apiextensionsv1.JSON) (map[string]any, error) {
	out := map[string]any{}
	if raw == nil || len(raw.Raw) == 0 || string(raw.Raw) == "null" {
		return out, nil
	}
	if err := json.Unmarshal(raw.Raw, &out); err != nil {
		return nil, fmt.Errorf("values are not an object: %w", err)
	}
	return out, nil
}

// Expand replaces the cluster placeholders in every string of values
// (${cluster.name}, ${cluster.region}, ${cluster.provider},
// ${cluster.labels['KEY']}), in place. Every value that cannot be expanded
// for this cluster is reported, by its path, sorted.
func Expand(values map[string]any, cluster *clusterv1alpha1.Cluster) error {
	var problems []string
	expandIn(values, "", cluster, &problems)
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	return fmt.Errorf("values for cluster %s: %s", cluster.Name, joinProblems(problems))
}

func expandIn(v any, path string, cluster *clusterv1alpha1.Cluster, problems *[]string) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = expandIn(e, path+"."+k, cluster, problems)
		}
	case []any:
		for i, e := range x {
			x[i] = expandIn(e, fmt.Sprintf("%s[%d]", path, i), cluster, problems)
		}
	case string:
		out, err := clustervalues.Expand(x, cluster)
		if err != nil {
			*problems = append(*problems, fmt.Sprintf("%s: %v", path[1:], err))
			return x
		}
		return out
	}
	return v
}

func joinProblems(p []string) string {
	out := p[0]
	for _, s := range p[1:] {
		out += "; " + s
	}
	return out
}
