// Package repo locates the repository and the team's shared folder from tests.
package repo

import (
	"os"
	"path/filepath"
	"testing"
)

// Root returns the repository root: the nearest directory above the test's
// working directory that holds go.mod.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the working directory")
		}
		dir = parent
	}
}

// SharedDir returns the team's shared folder beside the repository
// (../shared), or MCO_SHARED_DIR when set.
func SharedDir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("MCO_SHARED_DIR"); d != "" {
		return d
	}
	return filepath.Join(filepath.Dir(Root(t)), "shared")
}
