package main

import (
	"testing"

	"github.com/mco-org/mco/pkg/testing/repo"
)

// TestKarmadaCasesAgree runs every case Karmada keeps beside its
// third-party customizations through mco's interpreter: each must give
// what the case expects, which is what karmadactl interpret answers.
func TestKarmadaCasesAgree(t *testing.T) {
	r, err := compareAll(repo.RequireKarmadaSource(t), true)
	if err != nil {
		t.Fatal(err)
	}
	total := r.total()
	t.Logf("Karmada %s: %d cases agree, %d differ, %d have no expected output, over %d customizations",
		repo.KarmadaVersion, total.agree, total.differ, total.unchecked, r.customizations)
	for _, d := range r.differences {
		t.Error(d)
	}
	if total.agree < 500 {
		t.Errorf("only %d cases compared: Karmada's cases were not all found", total.agree)
	}
}
