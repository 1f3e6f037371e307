package compat

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	appsv1alpha1 "github.com/mco-org/mco/pkg/apis/apps/v1alpha1"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	remedyv1alpha1 "github.com/mco-org/mco/pkg/apis/remedy/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/testing/repo"
)

// karmadaGroups adds the packages serving Karmada's API groups. mco's own
// groups (ownGroups) are left out: the guard is about Karmada users' fields
// being acted on, not silently accepted.
var karmadaGroups = []func(*runtime.Scheme) error{
	appsv1alpha1.AddToScheme,
	clusterv1alpha1.AddToScheme,
	configv1alpha1.AddToScheme,
	policyv1alpha1.AddToScheme,
	remedyv1alpha1.AddToScheme,
	workv1alpha1.AddToScheme,
	workv1alpha2.AddToScheme,
}

// ownGroups are the API packages of mco's own groups, from pkg/apis.
var ownGroups = map[string]bool{"addons/v1alpha1": true, "rollout/v1alpha1": true}

// apisPkgPrefix marks the types the walker descends into; types of other
// modules (metav1.LabelSelector, corev1.Taint, ...) are leaves.
const apisPkgPrefix = "github.com/mco-org/mco/pkg/apis/"

// Proof kinds, the prefixes of a fieldProofs value's parts.
const (
	proofTest    = "test: "
	proofReadme  = "readme: "
	proofPending = "pending: "
)

// TestSpecFieldGuard fails unless every spec field of a Karmada-group kind
// is listed in fieldProofs with the proof that mco acts on it, so that a new
// field cannot be added and silently ignored.
func TestSpecFieldGuard(t *testing.T) {
	t.Parallel()
	kinds, err := karmadaKinds()
	if err != nil {
		t.Fatal(err)
	}
	w := walker{descend: isMCOAPIStruct, out: map[string]bool{}}
	for _, k := range kinds {
		w.walkKind(k.key, k.typ)
	}
	root := repo.Root(t)
	checkEveryAPIPackage(t, root, kinds)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatalf("reading README.md: %v", err)
	}
	logPending(t, fieldProofs)
	checkProofs(t, root, string(readme), fieldProofs)
	checkTableSorted(t, filepath.Join(root, tableFile))
	reportMissing(t, missingKeys(w.out, fieldProofs))
	reportStale(t, staleKeys(w.out, fieldProofs))
}

// tableFile holds fieldProofs, from the repository root.
const tableFile = "test/compat/fieldguard_table_test.go"

// tableKey matches a key at the start of a line of fieldProofs.
var tableKey = regexp.MustCompile(`(?m)^\t"([^"]+)":`)

// checkTableSorted keeps fieldProofs' source sorted by key, so that a
// kind's fields stay together and a new one has one place to go.
func checkTableSorted(t *testing.T, path string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the table: %v", err)
	}
	prev := ""
	for _, m := range tableKey.FindAllStringSubmatch(string(src), -1) {
		if m[1] < prev {
			t.Errorf("%s: key %q comes after %q; keep the keys sorted", tableFile, m[1], prev)
		}
		prev = m[1]
	}
}

// checkEveryAPIPackage fails for an API package of pkg/apis that is
// neither walked nor one of mco's own: a new Karmada group must not escape
// the guard by not being added to karmadaGroups.
func checkEveryAPIPackage(t *testing.T, root string, kinds []kind) {
	t.Helper()
	registers, err := filepath.Glob(filepath.Join(root, "pkg", "apis", "*", "*", "register.go"))
	if err != nil {
		t.Fatal(err)
	}
	walked := map[string]bool{}
	for _, k := range kinds {
		walked[strings.TrimPrefix(k.typ.PkgPath(), apisPkgPrefix)] = true
	}
	for _, r := range registers {
		rel, err := filepath.Rel(filepath.Join(root, "pkg", "apis"), filepath.Dir(r))
		if err != nil {
			t.Fatal(err)
		}
		if pkg := filepath.ToSlash(rel); !walked[pkg] && !ownGroups[pkg] {
			t.Errorf("pkg/apis/%s registers kinds the guard does not walk: add its AddToScheme to "+
				"karmadaGroups in test/compat/fieldguard_test.go, or the package to ownGroups if the group is mco's own", pkg)
		}
	}
}

// kind is one top-level kind to walk, keyed "<group>/<Kind>".
type kind struct {
	key string
	typ reflect.Type
}

// karmadaKinds lists the top-level kinds of the Karmada groups as their
// packages register them, so a kind added later is walked without editing
// this file. Lists and the meta/v1 types every group version gets are left
// out.
func karmadaKinds() ([]kind, error) {
	scheme := runtime.NewScheme()
	for _, add := range karmadaGroups {
		if err := add(scheme); err != nil {
			return nil, fmt.Errorf("building the scheme of Karmada's groups: %w", err)
		}
	}
	var kinds []kind
	for gvk, typ := range scheme.AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal || strings.HasSuffix(gvk.Kind, "List") ||
			!strings.HasPrefix(typ.PkgPath(), apisPkgPrefix) {
			continue
		}
		kinds = append(kinds, kind{key: gvk.Group + "/" + gvk.Kind, typ: typ})
	}
	sort.Slice(kinds, func(i, j int) bool { return kinds[i].key < kinds[j].key })
	return kinds, nil
}

// bookkeeping are the top-level fields every kind has (TypeMeta inline,
// ObjectMeta, status): they describe the object, they are not instructions
// for mco to act on.
var bookkeeping = map[string]bool{"apiVersion": true, "kind": true, "metadata": true, "status": true}

// walker records the JSON paths of a kind's fields.
type walker struct {
	// descend tells whether the fields of a struct type are walked;
	// other types are leaves.
	descend func(reflect.Type) bool
	out     map[string]bool
}

// walkKind records the fields of a kind: spec and what is below it, or for
// a kind without spec its other top-level fields
// (ResourceInterpreterWebhookConfiguration's webhooks).
func (w *walker) walkKind(prefix string, typ reflect.Type) {
	for _, f := range jsonFields(typ) {
		if !bookkeeping[f.name] {
			w.walkField(prefix+"."+f.name, f.typ, map[reflect.Type]bool{typ: true})
		}
	}
}

// walkField records key and, when its type is one to descend into, every
// field below it. onPath holds the struct types being walked, so that a
// recursive type stops instead of looping.
func (w *walker) walkField(key string, typ reflect.Type, onPath map[reflect.Type]bool) {
	w.out[key] = true
	typ = elemType(typ)
	if !w.descend(typ) || onPath[typ] {
		return
	}
	onPath[typ] = true
	defer delete(onPath, typ)
	for _, f := range jsonFields(typ) {
		w.walkField(key+"."+f.name, f.typ, onPath)
	}
}

// elemType strips pointers, slices, arrays and maps down to the type of a
// single value: `[]` and map keys are not written in the keys.
func elemType(typ reflect.Type) reflect.Type {
	for {
		switch typ.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			typ = typ.Elem()
		default:
			return typ
		}
	}
}

// isMCOAPIStruct is the walker's descend for mco's API types: types of
// other modules (metav1.LabelSelector, corev1.Taint, resource.Quantity)
// are leaves, as Karmada's own are.
func isMCOAPIStruct(typ reflect.Type) bool {
	return strings.HasPrefix(typ.PkgPath(), apisPkgPrefix) && decodesFieldByField(typ)
}

var jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()

// decodesFieldByField tells whether typ is a struct whose JSON fields are
// its own. A type with its own UnmarshalJSON (policyv1alpha1.JSON) is a
// raw value, hence a leaf.
func decodesFieldByField(typ reflect.Type) bool {
	return typ.Kind() == reflect.Struct && !reflect.PointerTo(typ).Implements(jsonUnmarshaler)
}

// jsonField is a field as it appears on the wire.
type jsonField struct {
	name string
	typ  reflect.Type
}

// jsonFields lists the wire fields of a struct the way encoding/json sees
// them: `json:"-"` and unexported fields dropped, inline and untagged
// embedded structs flattened into their parent (once each: a struct may
// embed a pointer to itself).
func jsonFields(typ reflect.Type) []jsonField {
	return appendJSONFields(nil, typ, map[reflect.Type]bool{})
}

func appendJSONFields(fields []jsonField, typ reflect.Type, flattened map[reflect.Type]bool) []jsonField {
	flattened[typ] = true
	for i := range typ.NumField() {
		sf := typ.Field(i)
		name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		switch {
		case name == "-" && opts == "":
		case isInline(sf, name, opts):
			if embedded := derefType(sf.Type); !flattened[embedded] {
				fields = appendJSONFields(fields, embedded, flattened)
			}
		case !sf.IsExported():
		case name == "":
			fields = append(fields, jsonField{name: sf.Name, typ: sf.Type})
		default:
			fields = append(fields, jsonField{name: name, typ: sf.Type})
		}
	}
	return fields
}

// isInline tells whether a field's own fields sit in its parent's object:
// Kubernetes' `json:",inline"`, or an embedded struct without a name.
func isInline(sf reflect.StructField, name, opts string) bool {
	if !sf.Anonymous || name != "" {
		return false
	}
	return strings.Contains(opts, "inline") || derefType(sf.Type).Kind() == reflect.Struct
}

func derefType(typ reflect.Type) reflect.Type {
	if typ.Kind() == reflect.Pointer {
		return typ.Elem()
	}
	return typ
}

// missingKeys returns the walked fields the table does not list, sorted.
func missingKeys(walked map[string]bool, proofs map[string]string) []string {
	var missing []string
	for _, k := range sortedKeys(walked) {
		if _, ok := proofs[k]; !ok {
			missing = append(missing, k)
		}
	}
	return missing
}

// staleKeys returns the table's keys naming no walked field, sorted.
func staleKeys(walked map[string]bool, proofs map[string]string) []string {
	var stale []string
	for _, k := range sortedKeys(proofs) {
		if !walked[k] {
			stale = append(stale, k)
		}
	}
	return stale
}

// reportMissing fails with the lines to paste into fieldProofs.
func reportMissing(t *testing.T, missing []string) {
	t.Helper()
	if len(missing) == 0 {
		return
	}
	var b strings.Builder
	for _, k := range missing {
		fmt.Fprintf(&b, "\t%q: \"test: <path from the repository root>#<TestFunc>\",\n", k)
	}
	t.Errorf("%d spec fields have no proof that mco acts on them; add them to fieldProofs in %s, "+
		"each with a test that exercises it or, where mco does not act on it, "+
		"\"readme: <exact README.md text saying why>\":\n%s", len(missing), tableFile, b.String())
}

// reportStale fails with the keys to delete from fieldProofs.
func reportStale(t *testing.T, stale []string) {
	t.Helper()
	if len(stale) == 0 {
		return
	}
	t.Errorf("fieldProofs lists fields that no longer exist; delete these keys from %s:\n\t%s",
		tableFile, strings.Join(stale, "\n\t"))
}

// checkProofs checks each entry's proofs: that the test function exists in
// the named file and that the README holds the quoted text.
func checkProofs(t *testing.T, root, readme string, proofs map[string]string) {
	t.Helper()
	files := map[string]string{}
	for _, k := range sortedKeys(proofs) {
		for _, p := range strings.Split(proofs[k], " | ") {
			if err := checkProof(root, readme, p, files); err != nil {
				t.Errorf("fieldProofs[%q]: %v", k, err)
			}
		}
	}
}

// logPending logs the fields still without proof, grouped by the reason
// given, so that the debt stays visible without failing the test.
func logPending(t *testing.T, proofs map[string]string) {
	t.Helper()
	byReason := map[string][]string{}
	for _, k := range sortedKeys(proofs) {
		for _, p := range strings.Split(proofs[k], " | ") {
			if isPending(p) {
				reason := strings.TrimPrefix(p, proofPending)
				byReason[reason] = append(byReason[reason], k)
			}
		}
	}
	for _, reason := range sortedKeys(byReason) {
		t.Logf("%d fields pending (%s):\n\t%s", len(byReason[reason]), reason, strings.Join(byReason[reason], "\n\t"))
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func isPending(proof string) bool { return strings.HasPrefix(proof, proofPending) }

// checkProof checks one proof; files caches the test files already read.
func checkProof(root, readme, proof string, files map[string]string) error {
	switch {
	case strings.HasPrefix(proof, proofTest):
		return checkTestProof(root, strings.TrimPrefix(proof, proofTest), files)
	case strings.HasPrefix(proof, proofReadme):
		if line := strings.TrimPrefix(proof, proofReadme); line == "" || !strings.Contains(readme, line) {
			return fmt.Errorf("README.md does not contain %q", line)
		}
		return nil
	case isPending(proof):
		if strings.TrimPrefix(proof, proofPending) == "" {
			return fmt.Errorf("pending proof %q gives no reason", proof)
		}
		return nil
	}
	return fmt.Errorf("proof %q starts with none of %q, %q, %q", proof, proofTest, proofReadme, proofPending)
}

// checkTestProof checks that "<file>#<TestFunc>" names a test function
// defined in that file.
func checkTestProof(root, ref string, files map[string]string) error {
	path, fn, ok := strings.Cut(ref, "#")
	if !ok || path == "" || !strings.HasPrefix(fn, "Test") {
		return fmt.Errorf("test proof %q is not <file>#<TestFunc>", ref)
	}
	src, ok := files[path]
	if !ok {
		data, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			return fmt.Errorf("test proof %q: %w", ref, err)
		}
		src = string(data)
		files[path] = src
	}
	if !strings.Contains(src, "func "+fn+"(") {
		return fmt.Errorf("%s has no func %s(", path, fn)
	}
	return nil
}

// The walker's own cases, on types shaped like the tricky parts of the
// API types: a recursive type, inline and untagged embedding, a raw value,
// a map of structs, and the fields a key must not show.
type (
	guardKind struct {
		metav1.TypeMeta   `json:",inline"`
		metav1.ObjectMeta `json:"metadata,omitempty"`
		Spec              guardNode  `json:"spec"`
		Status            guardEntry `json:"status"`
	}
	guardNode struct {
		Name        string      `json:"name"`
		Children    []guardNode `json:"children"`
		Next        *guardNode  `json:"next,omitempty"`
		Hidden      string      `json:"-"`
		Untagged    int
		private     int
		guardInline `json:",inline"`
		*guardEmbedded
		Raw guardRaw `json:"raw"`
	}
	guardInline struct {
		Entries map[string]guardEntry `json:"entries"`
	}
	guardEmbedded struct {
		Promoted bool `json:"promoted"`
	}
	guardEntry struct {
		Deep string `json:"deep"`
	}
	guardRaw struct{ raw []byte }
)

func (r *guardRaw) UnmarshalJSON(data []byte) error { r.raw = data; return nil }

func TestSpecFieldGuardWalker(t *testing.T) {
	t.Parallel()
	guardPkg := reflect.TypeFor[guardKind]().PkgPath()
	w := walker{
		descend: func(typ reflect.Type) bool { return typ.PkgPath() == guardPkg && decodesFieldByField(typ) },
		out:     map[string]bool{},
	}
	w.walkKind("g/Kind", reflect.TypeFor[guardKind]())
	want := []string{
		"g/Kind.spec", "g/Kind.spec.Untagged", "g/Kind.spec.children", "g/Kind.spec.entries",
		"g/Kind.spec.entries.deep", "g/Kind.spec.name", "g/Kind.spec.next", "g/Kind.spec.promoted", "g/Kind.spec.raw",
	}
	if got := sortedKeys(w.out); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("walked\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}
