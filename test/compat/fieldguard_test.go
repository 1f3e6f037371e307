package compat

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	appsv1alpha1 "github.com/mco-org/mco/pkg/apis/apps/v1alpha1"
	autoscalingv1alpha1 "github.com/mco-org/mco/pkg/apis/autoscaling/v1alpha1"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
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
	autoscalingv1alpha1.AddToScheme,
	clusterv1alpha1.AddToScheme,
	configv1alpha1.AddToScheme,
	networkingv1alpha1.AddToScheme,
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
	proofTest   = "test: "
	proofReadme = "readme: "
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
	checkProofs(t, root, string(readme), fieldProofs)
	for _, f := range tableFiles {
		checkTableSorted(t, filepath.Join(root, f))
	}
	reportMissing(t, missingKeys(w.out, fieldProofs))
	reportStale(t, staleKeys(w.out, fieldProofs))
}

// tableFile names where fieldProofs' tables are, for messages.
const tableFile = "test/compat/fieldproofs_*_test.go (the table of the field's group)"

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
			t.Errorf("%s: key %q comes after %q; keep the keys sorted", path, m[1], prev)
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

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
	}
	return fmt.Errorf("proof %q starts with neither %q nor %q", proof, proofTest, proofReadme)
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
