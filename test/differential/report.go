package differential

import (
	"fmt"
	"sort"
	"strings"
)

// Result is a case and how the servers differed on it (nothing when they
// agreed).
type Result struct {
	Case  Case
	Diffs []Difference
}

// GroupReport groups the differences of results by kind, then by generic
// difference, with how many cases show each and a few of them: the list of
// what to fix in mco, most common first.
func GroupReport(results []Result) string {
	byKind := map[string]map[string][]string{}
	for _, r := range results {
		groups := byKind[r.Case.Kind.Dir]
		if groups == nil {
			groups = map[string][]string{}
			byKind[r.Case.Kind.Dir] = groups
		}
		seen := map[string]bool{}
		for _, d := range r.Diffs {
			if !seen[d.Group] {
				seen[d.Group] = true
				groups[d.Group] = append(groups[d.Group], r.Case.Name)
			}
		}
	}
	var b strings.Builder
	for _, k := range Kinds {
		groups := byKind[k.Dir]
		if len(groups) == 0 {
			continue
		}
		fmt.Fprintf(&b, "== %s\n", k.GVK.Kind)
		names := sortedKeys(groups)
		sort.SliceStable(names, func(i, j int) bool { return len(groups[names[i]]) > len(groups[names[j]]) })
		for _, g := range names {
			cases := groups[g]
			examples := cases
			if len(examples) > 3 {
				examples = examples[:3]
			}
			fmt.Fprintf(&b, "%4d  %s  (e.g. %s)\n", len(cases), g, strings.Join(examples, ", "))
		}
	}
	return b.String()
}
