package benchkit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// Bounded returns ctx bounded by timeout, and explain, which says in the
// error a run ended with whether it was interrupted (parent ended) or gave
// up at the timeout.
func Bounded(parent context.Context, timeout time.Duration) (ctx context.Context, cancel context.CancelFunc, explain func(error) error) {
	ctx, cancel = context.WithTimeout(parent, timeout)
	explain = func(err error) error {
		switch {
		case err == nil:
			return nil
		case parent.Err() != nil:
			return fmt.Errorf("interrupted: %w", err)
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			return fmt.Errorf("gave up after %s (-timeout): %w", timeout, err)
		}
		return err
	}
	return ctx, cancel, explain
}

// Logger writes progress lines to w, each after the time of day.
func Logger(w io.Writer) func(string, ...any) {
	return func(format string, a ...any) {
		fmt.Fprintf(w, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, a...)...)
	}
}

// FreshEnv brings up the environment o describes in an emptied o.Dir,
// after stopping the processes a previous run that was killed left there.
func FreshEnv(ctx context.Context, o localcluster.Options, logf func(string, ...any)) (*localcluster.Env, error) {
	if env, err := localcluster.Load(o.Dir); err == nil {
		logf("stopping the processes of a previous run in %s", o.Dir)
		env.Down()
	}
	if err := os.RemoveAll(o.Dir); err != nil {
		return nil, err
	}
	start := time.Now()
	env, err := localcluster.Up(ctx, o)
	if err != nil {
		return nil, fmt.Errorf("bring up: %w (logs in %s)", err, filepath.Join(o.Dir, "logs"))
	}
	logf("up in %s", time.Since(start).Round(time.Millisecond))
	return env, nil
}
