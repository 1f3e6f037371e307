// Package tcplb is a small TCP load balancer for local high-availability
// setups: one loopback address in front of several apiserver replicas, so
// that a kubeconfig (and client-go, which talks to one host) keeps working
// when a replica dies. Connections go round robin to the backends; a
// backend that refuses the dial is skipped for that connection.
package tcplb

import (
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// dialTimeout bounds the dial of one backend.
const dialTimeout = time.Second

// LB forwards connections accepted on its address to its backends.
type LB struct {
	listener net.Listener
	backends []string
	next     atomic.Uint64
	wg       sync.WaitGroup

	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// Start listens on addr ("127.0.0.1:0" for a free port) and forwards to
// backends (host:port).
func Start(addr string, backends []string) (*LB, error) {
	if len(backends) == 0 {
		return nil, errors.New("tcplb: no backends")
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("tcplb: listen on %s: %w", addr, err)
	}
	lb := &LB{listener: l, backends: append([]string(nil), backends...), conns: map[net.Conn]struct{}{}}
	lb.wg.Add(1)
	go lb.serve()
	return lb, nil
}

// Addr is the address clients connect to.
func (lb *LB) Addr() string { return lb.listener.Addr().String() }

// Close stops accepting and ends every forwarded connection.
func (lb *LB) Close() error {
	err := lb.listener.Close()
	lb.mu.Lock()
	for c := range lb.conns {
		_ = c.Close()
	}
	lb.conns = nil
	lb.mu.Unlock()
	lb.wg.Wait()
	return err
}

func (lb *LB) serve() {
	defer lb.wg.Done()
	for {
		c, err := lb.listener.Accept()
		if err != nil {
			return
		}
		lb.wg.Add(1)
		go func() {
			defer lb.wg.Done()
			lb.forward(c)
		}()
	}
}

// forward pipes c to the first backend, round robin, that accepts a dial.
func (lb *LB) forward(c net.Conn) {
	defer c.Close()
	start := lb.next.Add(1)
	var b net.Conn
	for i := range lb.backends {
		addr := lb.backends[(start+uint64(i))%uint64(len(lb.backends))]
		conn, err := net.DialTimeout("tcp", addr, dialTimeout)
		if err == nil {
			b = conn
			break
		}
	}
	if b == nil {
		return
	}
	defer b.Close()
	if !lb.track(c, b) {
		return
	}
	defer lb.untrack(c, b)
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		// Half-close so that the other direction can finish.
		if tc, ok := dst.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
		done <- struct{}{}
	}
	go pipe(b, c)
	go pipe(c, b)
	<-done
	<-done
}

// track records a forwarded pair so that Close can end it; false when the
// balancer is closing.
func (lb *LB) track(conns ...net.Conn) bool {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	if lb.conns == nil {
		return false
	}
	for _, c := range conns {
		lb.conns[c] = struct{}{}
	}
	return true
}

func (lb *LB) untrack(conns ...net.Conn) {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	for _, c := range conns {
		delete(lb.conns, c)
	}
}
