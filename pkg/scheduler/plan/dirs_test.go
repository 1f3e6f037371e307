package plan

import (
	"os"
	"path/filepath"
	"testing"
)

func TestExpandDirs(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b.yaml", "a.json", "notes.txt", "c.yml"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := expandDirs([]string{dir, "missing.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "a.json"), filepath.Join(dir, "b.yaml"), filepath.Join(dir, "c.yml"), "missing.yaml"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}
