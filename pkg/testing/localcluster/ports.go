package localcluster

import (
	"fmt"
	"net"
	"sync"
)

// handedOut holds every port freePort returned in this process, so that two
// components started in one go never get the same port: the kernel may hand
// a closed listener's port out again at once.
var handedOut = struct {
	sync.Mutex
	ports map[int]bool
}{ports: map[int]bool{}}

// freePort asks the kernel for a free loopback TCP port this process has
// not handed out before.
func freePort() (int, error) {
	for range 100 {
		port, err := kernelPort()
		if err != nil {
			return 0, err
		}
		handedOut.Lock()
		seen := handedOut.ports[port]
		handedOut.ports[port] = true
		handedOut.Unlock()
		if !seen {
			return port, nil
		}
	}
	return 0, fmt.Errorf("find a free port: every port the kernel offered was handed out before")
}

// kernelPort binds port 0 on loopback and returns the port it got.
func kernelPort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
