package localcluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BringUp starts a suite's environment in dir with the binaries of binDir.
// It returns the environment to stop at the end, also when it fails part
// way, and a line telling what came up.
type BringUp func(ctx context.Context, dir, binDir string) (env *Env, summary string, err error)

// bringUpTimeout bounds a suite's bring-up.
const bringUpTimeout = 5 * time.Minute

// RunSuite runs the tests of m (from TestMain of a package two levels
// below the repository root) on an environment bringUp starts in a fresh
// temporary directory, and returns the exit code. The environment is
// stopped at the end; its directory is removed when every test passed and
// kept, logs and all, otherwise.
func RunSuite(m *testing.M, name string, bringUp BringUp) int {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	dir, err := os.MkdirTemp("", "mco-"+name+"-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), bringUpTimeout)
	start := time.Now()
	env, summary, err := bringUp(ctx, dir, filepath.Join(root, "_output", "bin"))
	cancel()
	code := 1
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: bring up: %v\n", name, err)
	} else {
		fmt.Printf("%s: %s up in %s\n", name, summary, time.Since(start).Round(time.Millisecond))
		code = m.Run()
	}
	if env != nil {
		env.Down()
	}
	if code == 0 {
		_ = os.RemoveAll(dir)
	} else {
		fmt.Fprintf(os.Stderr, "%s: logs kept in %s\n", name, filepath.Join(dir, "logs"))
	}
	return code
}
