package localcluster

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// loggedProcess is a process whose log holds an earlier start's lines
// (old), then what it logged since it started.
func loggedProcess(t *testing.T, old, sinceStart string) *Process {
	t.Helper()
	log := filepath.Join(t.TempDir(), "p.log")
	if err := os.WriteFile(log, []byte(old+sinceStart), 0o644); err != nil {
		t.Fatal(err)
	}
	return &Process{Log: log, logStart: int64(len(old))}
}

func TestPortClash(t *testing.T) {
	const old = "listen tcp 127.0.0.1:1: bind: address already in use\n"
	tests := []struct {
		name       string
		sinceStart string
		want       bool
	}{
		{"clash after start", "bind: address already in use\n", true},
		{"clash only in an earlier start", "other failure\n", false},
		{"nothing logged", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := portClash(errors.New("did not start"), loggedProcess(t, old, tt.sinceStart))
			if got := errors.Is(err, errPortClash); got != tt.want {
				t.Errorf("portClash marked %v, want %v (err %v)", got, tt.want, err)
			}
		})
	}
}

func TestRetryOnPortClash(t *testing.T) {
	calls := 0
	v, err := retryOnPortClash(func() (int, error) {
		calls++
		if calls < 3 {
			return 0, errPortClash
		}
		return calls, nil
	})
	if err != nil || v != 3 {
		t.Errorf("got %d, %v after %d calls; want 3, nil", v, err, calls)
	}
	calls = 0
	_, err = retryOnPortClash(func() (int, error) { calls++; return 0, errPortClash })
	if !errors.Is(err, errPortClash) || calls != portAttempts {
		t.Errorf("always clashing: %d calls, err %v; want %d calls", calls, err, portAttempts)
	}
}

func TestLogTail(t *testing.T) {
	const old = "an earlier start\n"
	tests := []struct {
		name, sinceStart, want string
	}{
		{"nothing logged", "", ""},
		{"fewer lines than asked", "a\nb\n", "\n    a\n    b"},
		{"only the last lines", "a\nb\nc\nd", "\n    c\n    d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := loggedProcess(t, old, tt.sinceStart).logTail(2); got != tt.want {
				t.Errorf("logTail(2) = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFreePortNeverRepeats(t *testing.T) {
	seen := map[int]bool{}
	for range 200 {
		p, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		if seen[p] {
			t.Fatalf("port %d handed out twice", p)
		}
		seen[p] = true
	}
}
