package addon

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/yaml"

	"github.com/mco-org/mco/pkg/addon"
	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

// Sources reads the ConfigMaps and Secrets on mco an Addon's valuesFrom
// names (from caches).
type Sources interface {
	ConfigMap(namespace, name string) (*corev1.ConfigMap, error)
	Secret(namespace, name string) (*corev1.Secret, error)
}

// Values are the merged values an Addon gives a cluster: spec.values,
// then each valuesFrom, then every override matching the cluster, in
// order, cluster placeholders expanded.
func Values(a *addonsv1alpha1.Addon, cluster *clusterv1alpha1.Cluster, sources Sources) (addon.Merged, error) {
	base, err := addon.Decode(a.Spec.Values)
	if err != nil {
		return addon.Merged{}, fmt.Errorf("spec.values: %w", err)
	}
	layers := []addon.Layer{{Source: "spec.values", Values: base}}
	for i := range a.Spec.ValuesFrom {
		l, err := valuesFrom(&a.Spec.ValuesFrom[i], i, sources)
		if err != nil {
			return addon.Merged{}, err
		}
		if l != nil {
			layers = append(layers, *l)
		}
	}
	overrides, err := addon.Overrides(&a.Spec, cluster)
	if err != nil {
		return addon.Merged{}, err
	}
	merged := addon.Merge(append(layers, overrides...)...)
	if err := addon.Expand(merged.Values, cluster); err != nil {
		return addon.Merged{}, err
	}
	return merged, nil
}

// valuesFrom reads one valuesFrom entry; nil when it is optional and
// absent.
func valuesFrom(r *addonsv1alpha1.ValuesReference, i int, sources Sources) (*addon.Layer, error) {
	source := fmt.Sprintf("spec.valuesFrom[%d] (%s %s/%s, key %s)", i, r.Kind, r.Namespace, r.Name, r.Key)
	var raw []byte
	var found bool
	switch r.Kind {
	case addonsv1alpha1.ValuesKindConfigMap:
		cm, err := sources.ConfigMap(r.Namespace, r.Name)
		if err != nil && !apierrors.IsNotFound(err) {
			return nil, fmt.Errorf("%s: %w", source, err)
		}
		if err == nil {
			var s string
			s, found = cm.Data[r.Key]
			raw = []byte(s)
		}
	case addonsv1alpha1.ValuesKindSecret:
		sec, err := sources.Secret(r.Namespace, r.Name)
		if err != nil && !apierrors.IsNotFound(err) {
			return nil, fmt.Errorf("%s: %w", source, err)
		}
		if err == nil {
			raw, found = sec.Data[r.Key]
		}
	default:
		return nil, fmt.Errorf("%s: unknown kind %q", source, r.Kind)
	}
	if !found {
		if r.Optional {
			return nil, nil
		}
		return nil, fmt.Errorf("%s: not found (set optional: true to install without it)", source)
	}
	values := map[string]any{}
	if err := yaml.Unmarshal(raw, &values); err != nil {
		return nil, fmt.Errorf("%s: not a YAML map of values: %w", source, err)
	}
	return &addon.Layer{Source: source, Values: values, Secret: r.Kind == addonsv1alpha1.ValuesKindSecret}, nil
}
