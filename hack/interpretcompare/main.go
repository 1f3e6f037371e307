// Command interpretcompare runs the test cases Karmada keeps beside its
// third-party resource interpreter customizations through mco's
// interpreter, as `kubectl mco interpret` runs them, and compares each
// result with the output the case expects (what Karmada's interpreter,
// and so karmadactl interpret, answers) as Karmada's own test of them
// does: replica requirements, components and dependencies decoded into
// their types and compared by value (quantities by amount; components by
// name and dependencies in Karmada's order), objects and the rest as data
// decoded from JSON. It prints the cases that differ and the counts by
// operation; it exits 1 when any differs.
//
//	mco-interpretcompare -karmada "$(go mod download -json github.com/karmada-io/karmada@v1.18.2 | jq -r .Dir)"
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/interpreter"
	"github.com/mco-org/mco/pkg/interpreter/lua"
)

// testCase is one case of a testdata file, as Karmada writes them.
type testCase struct {
	Name          string                              `json:"name"`
	DesiredObj    map[string]any                      `json:"desiredObj,omitempty"`
	ObservedObj   map[string]any                      `json:"observedObj,omitempty"`
	StatusItems   []workv1alpha2.AggregatedStatusItem `json:"statusItems,omitempty"`
	InputReplicas int32                               `json:"inputReplicas,omitempty"`
	Operation     string                              `json:"operation"`
	Output        map[string]any                      `json:"output,omitempty"`
}

// tally counts the cases of one operation.
type tally struct{ agree, differ, unchecked int }

func main() {
	karmada := flag.String("karmada", "", "a Karmada source tree (such as its module directory)")
	verbose := flag.Bool("v", false, "print both sides of each difference")
	flag.Parse()
	if *karmada == "" {
		fmt.Fprintln(os.Stderr, "interpretcompare: -karmada is required")
		os.Exit(2)
	}
	r, err := compareAll(*karmada, *verbose)
	if err != nil {
		fmt.Fprintln(os.Stderr, "interpretcompare:", err)
		os.Exit(2)
	}
	for _, line := range r.differences {
		fmt.Println(line)
	}
	ops := make([]string, 0, len(r.byOp))
	for op := range r.byOp {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	for _, op := range ops {
		t := r.byOp[op]
		fmt.Printf("%-20s agree %4d  differ %4d  no expected output %d\n", op, t.agree, t.differ, t.unchecked)
	}
	t := r.total()
	fmt.Printf("%-20s agree %4d  differ %4d  no expected output %d (of %d customizations)\n", "all", t.agree, t.differ, t.unchecked, r.customizations)
	if len(r.differences) > 0 {
		os.Exit(1)
	}
}

// report is what a comparison found.
type report struct {
	differences    []string
	byOp           map[string]*tally
	customizations int
}

func (r report) total() tally {
	var t tally
	for _, x := range r.byOp {
		t.agree, t.differ, t.unchecked = t.agree+x.agree, t.differ+x.differ, t.unchecked+x.unchecked
	}
	return t
}

// compareAll compares every case of every customization under karmada.
func compareAll(karmada string, verbose bool) (report, error) {
	root := filepath.Join(karmada, "pkg/resourceinterpreter/default/thirdparty/resourcecustomizations")
	r := report{byOp: map[string]*tally{}}
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "customizations.yaml" {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		return r, err
	}
	r.customizations = len(files)
	for _, f := range files {
		r.differences = append(r.differences, compareKind(f, r.byOp, verbose)...)
	}
	return r, nil
}

// compareKind runs every case beside one customizations.yaml and returns a
// line per case that differs.
func compareKind(path string, byOp map[string]*tally, verbose bool) []string {
	rel := strings.TrimSuffix(filepath.ToSlash(path), "/customizations.yaml")
	if i := strings.Index(rel, "resourcecustomizations/"); i >= 0 {
		rel = rel[i+len("resourcecustomizations/"):]
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return []string{rel + ": " + err.Error()}
	}
	var c configv1alpha1.ResourceInterpreterCustomization
	if err := yaml.Unmarshal(data, &c); err != nil {
		return []string{rel + ": customization: " + err.Error()}
	}
	set, errs := interpreter.NewSet([]*configv1alpha1.ResourceInterpreterCustomization{&c})
	if err := errors.Join(errs...); err != nil {
		return []string{rel + ": customization: " + err.Error()}
	}
	ipt := interpreter.New(lua.NewVM(), set)
	cases, err := readCases(filepath.Join(filepath.Dir(path), "testdata"))
	if err != nil {
		return []string{rel + ": " + err.Error()}
	}
	var out []string
	for _, tc := range cases {
		t := byOp[tc.Operation]
		if t == nil {
			t = &tally{}
			byOp[tc.Operation] = t
		}
		if len(tc.Output) == 0 {
			t.unchecked++
			continue
		}
		if why := compareCase(ipt, tc, verbose); why != "" {
			t.differ++
			out = append(out, fmt.Sprintf("%s [%s] %s: %s", rel, tc.Operation, tc.Name, why))
			continue
		}
		t.agree++
	}
	return out
}

// readCases reads every case of every file in dir.
func readCases(dir string) ([]testCase, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var cases []testCase
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
		for {
			var tc testCase
			if err := dec.Decode(&tc); err != nil {
				if err == io.EOF {
					break
				}
				return nil, fmt.Errorf("%s: %w", e.Name(), err)
			}
			if tc.Operation != "" {
				cases = append(cases, tc)
			}
		}
	}
	return cases, nil
}

// compareCase runs one case; "" when every result agrees with the output.
func compareCase(ipt *interpreter.Interpreter, tc testCase, verbose bool) string {
	op, err := interpreter.ParseOperation(tc.Operation)
	if err != nil {
		return err.Error()
	}
	args := interpreter.Args{Status: tc.StatusItems, Replica: tc.InputReplicas}
	if tc.DesiredObj != nil {
		args.Desired = &unstructured.Unstructured{Object: tc.DesiredObj}
	}
	if tc.ObservedObj != nil {
		args.Observed = &unstructured.Unstructured{Object: tc.ObservedObj}
	}
	results, err := ipt.Execute(context.Background(), op, args)
	if err != nil {
		return "mco fails: " + err.Error()
	}
	var why []string
	seen := map[string]bool{}
	for _, r := range results {
		want, ok := tc.Output[r.Name]
		if !ok {
			continue
		}
		seen[r.Name] = true
		same, err := equal(r.Value, want)
		if err != nil {
			return r.Name + ": " + err.Error()
		}
		if !same {
			msg := r.Name + " differs"
			if verbose {
				g, _ := json.Marshal(r.Value)
				w, _ := json.Marshal(want)
				msg += fmt.Sprintf("\n    mco:     %s\n    karmada: %s", g, w)
			}
			why = append(why, msg)
		}
	}
	for name := range tc.Output {
		if !seen[name] {
			why = append(why, "mco gives no "+name)
		}
	}
	sort.Strings(why)
	return strings.Join(why, "; ")
}

// equal compares mco's result with the expected output.
func equal(got, want any) (bool, error) {
	raw, err := json.Marshal(want)
	if err != nil {
		return false, err
	}
	switch g := got.(type) {
	case *workv1alpha2.ReplicaRequirements:
		var w workv1alpha2.ReplicaRequirements
		if err := json.Unmarshal(raw, &w); err != nil {
			return false, err
		}
		return equality.Semantic.DeepEqual(&w, g), nil
	case []workv1alpha2.Component:
		var w []workv1alpha2.Component
		if err := json.Unmarshal(raw, &w); err != nil {
			return false, err
		}
		byName := func(c []workv1alpha2.Component) {
			sort.Slice(c, func(i, j int) bool { return c[i].Name < c[j].Name })
		}
		byName(w)
		byName(g)
		return equality.Semantic.DeepEqual(w, g), nil
	case []configv1alpha1.DependentObjectReference:
		var w []configv1alpha1.DependentObjectReference
		if err := json.Unmarshal(raw, &w); err != nil {
			return false, err
		}
		for _, d := range [][]configv1alpha1.DependentObjectReference{w, g} {
			sort.Slice(d, func(i, j int) bool {
				a, b := d[i], d[j]
				return a.APIVersion+"/"+a.Kind+"/"+a.Namespace+"/"+a.Name < b.APIVersion+"/"+b.Kind+"/"+b.Namespace+"/"+b.Name
			})
		}
		return equality.Semantic.DeepEqual(w, g), nil
	}
	g, err := asData(got)
	if err != nil {
		return false, err
	}
	w, err := asData(want)
	if err != nil {
		return false, err
	}
	// A field Karmada's case marks {{EXCLUDE}} (a time the script takes
	// from the clock) is left out of both.
	return reflect.DeepEqual(exclude(g, w), exclude(w, w)), nil
}

// excludeMark stands for a value a case does not compare.
const excludeMark = "{{EXCLUDE}}"

// exclude is v without the fields that mark holds excludeMark at, at the
// same path (list positions included).
func exclude(v, mark any) any {
	switch x := v.(type) {
	case map[string]any:
		m, _ := mark.(map[string]any)
		out := make(map[string]any, len(x))
		for k, item := range x {
			if s, ok := m[k].(string); ok && s == excludeMark {
				continue
			}
			out[k] = exclude(item, m[k])
		}
		return out
	case []any:
		l, _ := mark.([]any)
		out := make([]any, len(x))
		for i, item := range x {
			var mi any
			if i < len(l) {
				mi = l[i]
			}
			out[i] = exclude(item, mi)
		}
		return out
	}
	return v
}

// asData is a value as its JSON form decodes.
func asData(v any) (any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	return out, json.Unmarshal(raw, &out)
}
