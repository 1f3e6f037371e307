package localcluster

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// portAttempts bounds how often a process is started again on new ports.
const portAttempts = 5

// errPortClash marks a start that failed because another process bound a
// chosen port between freePort and the process's own bind.
var errPortClash = errors.New("a chosen port was taken meanwhile")

// retryOnPortClash calls start until it succeeds, fails for another reason,
// or has been called portAttempts times. Each call must choose its ports
// afresh.
func retryOnPortClash[T any](start func() (T, error)) (T, error) {
	var v T
	var err error
	for range portAttempts {
		v, err = start()
		if !errors.Is(err, errPortClash) {
			return v, err
		}
	}
	return v, err
}

// portClash marks err with errPortClash when p has logged, since it was
// started, that an address was already in use.
func portClash(err error, p *Process) error {
	if err == nil || p == nil || errors.Is(err, errPortClash) || !p.loggedSinceStart("address already in use") {
		return err
	}
	return fmt.Errorf("%w: %w", errPortClash, err)
}

// loggedSinceStart reports whether p's log, from where it stood when p
// started, contains s.
func (p *Process) loggedSinceStart(s string) bool {
	b, err := p.logSinceStart()
	return err == nil && bytes.Contains(b, []byte(s))
}

// logSinceStart reads p's log from where it stood when p started.
func (p *Process) logSinceStart() ([]byte, error) {
	f, err := os.Open(p.Log)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.Seek(p.logStart, io.SeekStart); err != nil {
		return nil, err
	}
	return io.ReadAll(f)
}

// logTail is the last n lines p logged since it started, indented, for an
// error that should say why p failed without sending the reader to a file
// CI does not keep.
func (p *Process) logTail(n int) string {
	b, err := p.logSinceStart()
	if err != nil || len(bytes.TrimSpace(b)) == 0 {
		return ""
	}
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "\n    " + string(bytes.Join(lines, []byte("\n    ")))
}
