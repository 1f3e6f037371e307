package etcd

import (
	"context"
	"net"
	"testing"
)

// TestStartChoosesAgainWhenAPortIsTaken covers the moment between choosing
// a free port and binding it: another process may take it, and Start then
// chooses new ports instead of failing.
func TestStartChoosesAgainWhenAPortIsTaken(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	takenPort := taken.Addr().(*net.TCPAddr).Port

	picks := 0
	pickPort = func() (int, error) {
		picks++
		if picks == 1 {
			return takenPort, nil
		}
		return freePort()
	}
	defer func() { pickPort = freePort }()

	e, err := Start(context.Background(), t.TempDir())
	if err != nil {
		t.Fatalf("Start with a taken first port: %v", err)
	}
	defer e.Stop()
	if picks < 4 {
		t.Errorf("Start picked %d ports, want a second attempt (4 picks)", picks)
	}
}
