package compat

// fieldProofs lists every spec field of a Karmada-group kind that
// TestSpecFieldGuard walks, keyed "<group>/<Kind>.<json path>" (list items
// and map values are not marked), with the proof that mco acts on it:
//
//   - "test: <file from the repository root>#<TestFunc>": a test that
//     exercises the field through real behaviour; e2e or integration when
//     one does, else the unit test of the package implementing it;
//   - "readme: <exact README.md text>": where the README says how mco acts
//     on the field, or why it does not.
//
// Several proofs are separated by " | ". The tables are split by group
// (fieldproofs_*_test.go, one job each), each sorted by key.
var fieldProofs = mergeProofs(proofsPropagation, proofsPolicy, proofsWork, proofsOther, proofsAutoscaling)

// tableFiles hold fieldProofs' tables, from the repository root.
var tableFiles = []string{
	"test/compat/fieldproofs_propagation_test.go",
	"test/compat/fieldproofs_override_test.go",
	"test/compat/fieldproofs_work_test.go",
	"test/compat/fieldproofs_other_test.go",
	"test/compat/fieldproofs_autoscaling_test.go",
}

// mergeProofs joins the tables; a key in two of them is a mistake the
// guard reports by panicking at start.
func mergeProofs(tables ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, t := range tables {
		for k, v := range t {
			if _, dup := out[k]; dup {
				panic("fieldProofs: " + k + " is listed twice")
			}
			out[k] = v
		}
	}
	return out
}
