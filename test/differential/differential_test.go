package differential

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mco-org/mco/pkg/testing/repo"
)

const (
	knownDriftsFile = "testdata/known-drifts.txt"
	// mutationsEnv asks for more mutations per kind than the default run's.
	mutationsEnv     = "MCO_DIFFERENTIAL_MUTATIONS"
	defaultMutations = 100
)

// TestDifferential sends every case to kube-apiserver and mco-apiserver
// and fails on a difference not listed in known-drifts.txt, and on a
// listed one that is gone.
func TestDifferential(t *testing.T) {
	start := time.Now()
	mutations := defaultMutations
	if v := os.Getenv(mutationsEnv); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			t.Fatalf("%s=%q: want a number of mutations per kind", mutationsEnv, v)
		}
		mutations = n
	}
	corpus, err := LoadCorpus(filepath.Join("testdata", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	// Karmada's examples join the corpus where they sit beside the
	// repository; the corpus and its mutations run either way.
	var examples []Case
	if dir, ok := repo.KarmadaExamples(t); ok {
		if examples, err = LoadExamples(dir); err != nil {
			t.Fatal(err)
		}
	} else {
		repo.Skipped(t, fmt.Sprintf("Karmada's examples are not under %s; their cases are left out", dir))
	}
	kube, mco := startServers(t)
	ctx := context.Background()

	results := runAll(ctx, kube, mco, append(append([]Case{}, corpus...), examples...))
	seeds := map[string][]Case{}
	for _, r := range results[:len(corpus)] {
		if r.kubeAccepted && !r.Case.IsUpdate() {
			seeds[r.Case.Kind.Dir] = append(seeds[r.Case.Kind.Dir], r.Case)
		}
	}
	var mutated []Case
	for _, k := range Kinds {
		mutated = append(mutated, Mutations(k, seeds[k.Dir], mutations)...)
	}
	results = append(results, runAll(ctx, kube, mco, mutated)...)

	if *show != "" {
		if err := showCases(*show, results); err != nil {
			t.Fatal(err)
		}
	}
	summaries := map[string]string{}
	var all []Result
	perKind := map[string]int{}
	for _, r := range results {
		if r.err != nil {
			t.Errorf("case %s (%s): %v", r.Case.Name, r.Case.Source, r.err)
			continue
		}
		summaries[r.Case.Name] = Summarize(r.Diffs)
		all = append(all, r.Result)
		perKind[r.Case.Kind.Dir]++
	}
	known, err := ReadDrifts(knownDriftsFile)
	if err != nil {
		t.Fatal(err)
	}
	v := Judge(summaries, known)
	fmt.Printf("differential: %d cases run (%d corpus, %d Karmada examples, %d mutations) in %s: %d identical, %d known drifts, %d new drifts, %d fixed drifts\n",
		v.Run, len(corpus), len(examples), len(mutated), time.Since(start).Round(time.Second),
		v.Identical, len(v.Known), len(v.New), len(v.Fixed))
	fmt.Printf("differential: cases per kind: %s\n", countsLine(perKind))
	if *driftReport || *updateDrifts {
		fmt.Print(GroupReport(all))
	}
	if *updateDrifts {
		if err := WriteDrifts(knownDriftsFile, Updated(known, summaries)); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", knownDriftsFile)
		return
	}
	byName := map[string]Result{}
	for _, r := range all {
		byName[r.Case.Name] = r
	}
	for _, name := range v.New {
		r := byName[name]
		t.Errorf("new drift in %s (%s):\n  %s", name, r.Case.Source, details(r.Diffs))
	}
	for _, name := range v.Fixed {
		t.Errorf("%s no longer differs: remove it from %s (or rerun with -update-drifts)", name, knownDriftsFile)
	}
	if len(v.New) > 0 {
		t.Logf("if these differences are expected for now, rerun with -update-drifts to list them")
	}
	if len(v.Changed) > 0 {
		t.Logf("%d known drifts differ otherwise than listed (e.g. %s); -update-drifts refreshes them", len(v.Changed), v.Changed[0])
	}
}

func details(diffs []Difference) string {
	var lines []string
	for _, d := range diffs {
		lines = append(lines, d.Detail)
	}
	return strings.Join(lines, "\n  ")
}

func countsLine(perKind map[string]int) string {
	var parts []string
	for _, k := range Kinds {
		parts = append(parts, fmt.Sprintf("%s %d", k.Dir, perKind[k.Dir]))
	}
	return strings.Join(parts, ", ")
}
