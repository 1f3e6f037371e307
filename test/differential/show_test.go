package differential

import (
	"fmt"
	"regexp"
	"strings"

	"sigs.k8s.io/yaml"
)

// showCases prints, for the cases whose name matches pattern, what was
// sent and what each server answered: the -show flag, for looking into a
// drift.
func showCases(pattern string, results []ran) error {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return fmt.Errorf("-show: %w", err)
	}
	for _, r := range results {
		if !re.MatchString(r.Case.Name) {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "===== %s (%s)\n", r.Case.Name, r.Case.Source)
		if r.Case.IsUpdate() {
			fmt.Fprintf(&b, "--- base\n%s--- update (merge patch)\n%s\n", toYAML(r.Case.Base), r.Case.Patch)
		} else {
			fmt.Fprintf(&b, "--- sent\n%s", toYAML(r.Case.Object))
		}
		for _, s := range []struct {
			name string
			o    Outcome
		}{{"kube", r.kube}, {"mco", r.mco}} {
			fmt.Fprintf(&b, "--- %s: %s %s\n", s.name, s.o, s.o.Message)
			for _, c := range s.o.Causes {
				fmt.Fprintf(&b, "    cause: %s\n", c)
			}
			for _, w := range s.o.Warnings {
				fmt.Fprintf(&b, "    warning: %s\n", w)
			}
		}
		if s := r.kube.Object; s != nil {
			fmt.Fprintf(&b, "--- kube's object\n%s", toYAML(s))
		}
		fmt.Fprintf(&b, "--- differences\n  %s\n", details(r.Diffs))
		fmt.Print(b.String())
	}
	return nil
}

func toYAML(o map[string]any) string {
	data, err := yaml.Marshal(o)
	if err != nil {
		return fmt.Sprintf("(%v)\n", err)
	}
	return string(data)
}
