package repo

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// SkippedLogEnv names a file to which tests append one line for each check
// they skip because something beside the repository is absent; make test
// prints it, since go test shows skip messages only with -v.
const SkippedLogEnv = "MCO_SKIPPED_LOG"

// KarmadaExamples returns the directory of Karmada's example manifests
// (shared/compat/karmada-examples beside the repository) and whether it
// holds any. They are Karmada's files, kept beside the repository for the
// team's CI and never inside it, so a plain clone lacks them: there their
// absence is reported as a skipped check (Skipped); under CI=true, where
// they are always laid, it fails the test instead, so CI never loses the
// checks silently.
func KarmadaExamples(t testing.TB) (string, bool) {
	t.Helper()
	dir := filepath.Join(SharedDir(t), "compat", "karmada-examples")
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if len(files) > 0 {
		return dir, true
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("no Karmada examples under %s: CI lays them beside the repository", dir)
	}
	return dir, false
}

// RequireKarmadaExamples returns the directory of Karmada's example
// manifests, or skips the test where they are absent (see KarmadaExamples).
func RequireKarmadaExamples(t testing.TB) string {
	t.Helper()
	dir, ok := KarmadaExamples(t)
	if !ok {
		Skipped(t, fmt.Sprintf("Karmada's examples are not under %s", dir))
		t.SkipNow()
	}
	return dir
}

// Skipped reports that the test leaves a check out, and why: as a test log
// line, and as a line in the file named by MCO_SKIPPED_LOG when set.
func Skipped(t testing.TB, why string) {
	t.Helper()
	line := fmt.Sprintf("%s: skipped: %s", t.Name(), why)
	t.Log(line)
	path := os.Getenv(SkippedLogEnv)
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Logf("record the skipped check in %s: %v", path, err)
		return
	}
	defer f.Close()
	if _, err := fmt.Fprintln(f, line); err != nil {
		t.Logf("record the skipped check in %s: %v", path, err)
	}
}

// KarmadaVersion is the release of Karmada whose sources tests read (its
// interpreter customizations and their cases) from the Go module proxy.
const KarmadaVersion = "v1.18.2"

// RequireKarmadaSource returns the directory of Karmada's module at
// KarmadaVersion, downloading it through the Go module proxy as the build
// does its modules. Where the proxy cannot serve it the test is skipped
// (Skipped), and fails under CI=true, where it always can.
func RequireKarmadaSource(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/karmada-io/karmada@"+KarmadaVersion).Output()
	var mod struct{ Dir, Error string }
	if err == nil {
		err = json.Unmarshal(out, &mod)
	}
	if err == nil && mod.Error != "" {
		err = errors.New(mod.Error)
	}
	if err == nil && mod.Dir != "" {
		return mod.Dir
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("download Karmada %s from the Go module proxy: %v", KarmadaVersion, err)
	}
	Skipped(t, fmt.Sprintf("Karmada %s could not be downloaded: %v", KarmadaVersion, err))
	t.SkipNow()
	return ""
}
