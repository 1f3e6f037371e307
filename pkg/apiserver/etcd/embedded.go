// Package etcd runs the embedded etcd that backs mco-apiserver by default.
package etcd

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
)

// Embedded is a single-member etcd listening on loopback ports chosen free.
type Embedded struct {
	etcd      *embed.Etcd
	clientURL string

	inProcessOnce sync.Once
	inProcess     *InProcess
}

// startTimeout bounds how long etcd may take to become ready.
const startTimeout = 60 * time.Second

// stopTimeout bounds how long Stop waits for etcd's graceful close.
const stopTimeout = time.Second

// portAttempts bounds how often Start picks new ports when another process
// took a chosen one between the pick and etcd's bind.
const portAttempts = 5

// Start runs an etcd member with its data under dir and waits until it
// serves. It never uses the well-known ports 2379/2380. A port taken by
// another process in the moment between choosing and binding it is not a
// failure: Start chooses again.
func Start(ctx context.Context, dir string) (*Embedded, error) {
	var err error
	for attempt := 1; attempt <= portAttempts; attempt++ {
		var e *Embedded
		e, err = start(ctx, dir)
		if err == nil {
			return e, nil
		}
		if !errors.Is(err, syscall.EADDRINUSE) {
			return nil, err
		}
	}
	return nil, err
}

// start is one attempt of Start on freshly chosen ports.
func start(ctx context.Context, dir string) (*Embedded, error) {
	clientPort, err := pickPort()
	if err != nil {
		return nil, err
	}
	peerPort, err := pickPort()
	if err != nil {
		return nil, err
	}
	cfg := embed.NewConfig()
	cfg.Name = "mco"
	cfg.Dir = filepath.Join(dir, "etcd")
	// etcd's own log goes to a file beside its data: it is chatty at
	// shutdown and the apiserver's log should stay readable.
	cfg.LogLevel = "warn"
	cfg.LogOutputs = []string{filepath.Join(dir, "etcd.log")}
	clientURL := url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", clientPort)}
	peerURL := url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", peerPort)}
	cfg.ListenClientUrls = []url.URL{clientURL}
	cfg.AdvertiseClientUrls = []url.URL{clientURL}
	cfg.ListenPeerUrls = []url.URL{peerURL}
	cfg.AdvertisePeerUrls = []url.URL{peerURL}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	// The apiserver compacts on its own schedule; keep etcd's off.
	cfg.AutoCompactionMode = embed.CompactorModePeriodic
	cfg.AutoCompactionRetention = "0"
	// Metrics for the embedded member are exposed through the apiserver's own.
	cfg.Metrics = "basic"

	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return nil, fmt.Errorf("start embedded etcd in %s: %w", cfg.Dir, err)
	}
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		e.Close()
		return nil, fmt.Errorf("embedded etcd failed: %w", err)
	case <-time.After(startTimeout):
		e.Close()
		return nil, fmt.Errorf("embedded etcd not ready after %s", startTimeout)
	case <-ctx.Done():
		e.Close()
		return nil, ctx.Err()
	}
	return &Embedded{etcd: e, clientURL: clientURL.String()}, nil
}

// ClientURL is the address clients reach the member at.
func (e *Embedded) ClientURL() string { return e.clientURL }

// Err reports a failure of the running member.
func (e *Embedded) Err() <-chan error { return e.etcd.Err() }

// Stop shuts the member down and waits for it, stopTimeout at most. etcd's
// graceful close waits for the client streams still open, up to its
// request timeout (7 s): a watch the apiserver failed to close would hold
// every shutdown that long after serving stopped (one did, from a storage
// built and never installed). The process exits after Stop: leaving etcd
// mid-close is as safe as a crash after its last write, which its
// write-ahead log recovers from.
func (e *Embedded) Stop() {
	if e.inProcess != nil {
		e.inProcess.stop()
	}
	done := make(chan struct{})
	go func() {
		e.etcd.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(stopTimeout):
	}
}

// pickPort chooses the ports Start binds; tests replace it.
var pickPort = freePort

// freePort asks the kernel for a free loopback TCP port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
