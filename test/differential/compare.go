package differential

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Cause is one cause of a rejection: the field and the cause type.
type Cause struct {
	Field string
	Type  string
}

func (c Cause) String() string { return c.Field + " " + c.Type }

// Outcome is what a server answered to one request.
type Outcome struct {
	Code     int
	Reason   string
	Message  string
	Causes   []Cause
	Warnings []string
	// Object is the returned object when the request was accepted.
	Object map[string]any
}

// Accepted reports whether the server accepted the request.
func (o Outcome) Accepted() bool { return o.Code >= 200 && o.Code < 300 }

func (o Outcome) String() string {
	if o.Accepted() {
		return fmt.Sprintf("%d", o.Code)
	}
	return fmt.Sprintf("%d %s", o.Code, o.Reason)
}

// Difference is one way the servers' outcomes differ.
type Difference struct {
	// Group is the generic form (list indices as [*], no values) that
	// known-drifts.txt and the grouped report show, "<category>: <what>".
	Group string
	// Detail has the concrete paths and values.
	Detail string
}

// compareOutcomes decides how the outcome of kube-apiserver and that of
// mco-apiserver to the same request differ. input is the object sent;
// update says whether the request was an update (object differences are
// then not defaulting).
func compareOutcomes(rules []Deliberate, kind string, input map[string]any, update bool, kube, mco Outcome) []Difference {
	var out []Difference
	add := func(group, detail string) { out = append(out, Difference{Group: group, Detail: detail}) }
	if (kube.Accepted() != mco.Accepted() || kube.Code != mco.Code) && deliberateOutcome(kind, input, kube, mco) != "" {
		return nil
	}
	switch {
	case kube.Accepted() && !mco.Accepted():
		add(fmt.Sprintf("outcome: accepted by kube, rejected by mco (%d %s)", mco.Code, mco.Reason),
			fmt.Sprintf("mco rejected (%s): %s", mco, mco.Message))
	case !kube.Accepted() && mco.Accepted():
		add(fmt.Sprintf("outcome: rejected by kube (%d %s), accepted by mco", kube.Code, kube.Reason),
			fmt.Sprintf("kube rejected (%s): %s", kube, kube.Message))
	case kube.Code != mco.Code || kube.Reason != mco.Reason:
		add(fmt.Sprintf("status: kube %s, mco %s", kube, mco), fmt.Sprintf("kube: %s; mco: %s", kube.Message, mco.Message))
	}
	if !kube.Accepted() && !mco.Accepted() {
		onlyKube, onlyMCO := diffCauses(kube.Causes, mco.Causes)
		if sameUpToIndices(onlyKube, onlyMCO) {
			// Both run Kubernetes' validation, which numbers some lists
			// it builds from maps (a StatefulSet's claim templates as
			// volumes) in random order: the same causes at other indices
			// are no difference.
			onlyKube, onlyMCO = nil, nil
		}
		for _, c := range onlyKube {
			add("validation: cause only on kube: "+genericPath(c.String()), "cause only on kube: "+c.String())
		}
		for _, c := range onlyMCO {
			add("validation: cause only on mco: "+genericPath(c.String()), "cause only on mco: "+c.String())
		}
	}
	onlyKube, onlyMCO := diffStrings(kube.Warnings, mco.Warnings)
	for _, w := range onlyKube {
		add("warnings: only on kube: "+genericWarning(w), "warning only on kube: "+w)
	}
	for _, w := range onlyMCO {
		add("warnings: only on mco: "+genericWarning(w), "warning only on mco: "+w)
	}
	if kube.Accepted() && mco.Accepted() {
		category := "defaulting"
		if update {
			category = "update"
		}
		k := normalize(rules, kind, input, kube.Object)
		m := normalize(rules, kind, input, mco.Object)
		for _, d := range diffObjects(k, m) {
			add(category+": "+describeField(d, false), describeField(d, true))
		}
	}
	return out
}

// describeField says how one field differs, with values when concrete.
func describeField(d FieldDiff, concrete bool) string {
	path := d.Rendered
	if !concrete {
		path = genericPath(path)
	}
	switch {
	case !d.MCOHas:
		if concrete {
			return fmt.Sprintf("%s only on kube (%s)", path, renderValue(d.Kube))
		}
		return path + " only on kube"
	case !d.KubeHas:
		if concrete {
			return fmt.Sprintf("%s only on mco (%s)", path, renderValue(d.MCO))
		}
		return path + " only on mco"
	case concrete:
		return fmt.Sprintf("%s differs: kube %s, mco %s", path, renderValue(d.Kube), renderValue(d.MCO))
	default:
		return path + " differs"
	}
}

// diffCauses returns the causes only kube gave and those only mco gave,
// each sorted and without duplicates.
func diffCauses(kube, mco []Cause) (onlyKube, onlyMCO []Cause) {
	toStrings := func(cs []Cause) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Field+"\x00"+c.Type)
		}
		return out
	}
	k, m := diffStrings(toStrings(kube), toStrings(mco))
	back := func(ss []string) []Cause {
		var out []Cause
		for _, s := range ss {
			f, t, _ := strings.Cut(s, "\x00")
			out = append(out, Cause{Field: f, Type: t})
		}
		return out
	}
	return back(k), back(m)
}

// sameUpToIndices reports whether two lists of causes are the same once
// list indices are left out of their fields.
func sameUpToIndices(a, b []Cause) bool {
	generic := func(cs []Cause) []string {
		var out []string
		for _, c := range cs {
			out = append(out, genericPath(c.Field)+"\x00"+c.Type)
		}
		sort.Strings(out)
		return out
	}
	return slices.Equal(generic(a), generic(b))
}

// diffStrings compares two sets of strings.
func diffStrings(a, b []string) (onlyA, onlyB []string) {
	inA, inB := set(a), set(b)
	for s := range inA {
		if !inB[s] {
			onlyA = append(onlyA, s)
		}
	}
	for s := range inB {
		if !inA[s] {
			onlyB = append(onlyB, s)
		}
	}
	sort.Strings(onlyA)
	sort.Strings(onlyB)
	return onlyA, onlyB
}

func set(ss []string) map[string]bool {
	m := map[string]bool{}
	for _, s := range ss {
		m[s] = true
	}
	return m
}

// genericWarning keeps the field path of a warning ("path: message"),
// generalized, and the start of its message.
func genericWarning(w string) string {
	const max = 70
	w = genericPath(w)
	if len(w) > max {
		w = w[:max] + "…"
	}
	return w
}
