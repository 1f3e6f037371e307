package addon

import (
	"context"
	"fmt"
	"io"
	"sort"

	"sigs.k8s.io/yaml"

	"github.com/mco-org/mco/pkg/addon/chart"
	addonctl "github.com/mco-org/mco/pkg/controllers/addon"
)

// redacted stands for what a Secret holds.
const redacted = "<redacted>"

// printValues prints the merged values, each top-level key after the
// layer that set it; keys a Secret set are redacted unless showSecrets.
func printValues(out io.Writer, in *inputs, showSecrets bool) error {
	merged, err := addonctl.Values(in.addon, in.cluster, in.sources)
	if err != nil {
		return err
	}
	keys := make([]string, 0, len(merged.Values))
	for k := range merged.Values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(out, "# values of add-on %s for cluster %s\n", in.addon.Name, in.cluster.Name)
	for _, k := range keys {
		v := merged.Values[k]
		if !showSecrets && merged.FromSecret[k] {
			v = redacted
		}
		raw, err := yaml.Marshal(map[string]any{k: v})
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "# set by %s\n%s", merged.SetBy[k], raw)
	}
	return nil
}

// printRender prints the rendered objects as a YAML stream; Secrets'
// data redacted unless showSecrets.
func printRender(ctx context.Context, out io.Writer, in *inputs, showSecrets bool) error {
	r := addonctl.NewRenderer(chart.NewFetcher(), in.sources, addonctl.SecretCredentials(in.sources), nil)
	rendered, err := r.Render(ctx, in.addon, in.cluster)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "# add-on %s, chart %s %s (%s), for cluster %s\n", in.addon.Name, in.addon.Spec.Chart.Name,
		rendered.ChartVersion, rendered.ChartDigest, in.cluster.Name)
	for _, o := range rendered.Objects {
		obj := o.Object.DeepCopy()
		if !showSecrets && obj.GetAPIVersion() == "v1" && obj.GetKind() == "Secret" {
			redact(obj.Object, "data")
			redact(obj.Object, "stringData")
		}
		raw, err := yaml.Marshal(obj.Object)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "---\n# Source: %s\n%s", o.Source, raw)
	}
	return nil
}

// redact replaces every value under obj[field] with redacted.
func redact(obj map[string]any, field string) {
	m, ok := obj[field].(map[string]any)
	if !ok {
		return
	}
	for k := range m {
		m[k] = redacted
	}
}
