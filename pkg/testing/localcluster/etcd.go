package localcluster

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"time"
)

// startEtcd runs the etcd all members share, on free loopback ports.
func startEtcd(ctx context.Context, binDir, dataDir, logDir string) (*Process, string, error) {
	type started struct {
		p   *Process
		url string
	}
	s, err := retryOnPortClash(func() (started, error) {
		p, url, err := startEtcdOnce(ctx, binDir, dataDir, logDir)
		return started{p, url}, err
	})
	return s.p, s.url, err
}

// startEtcdOnce is one attempt of startEtcd on fresh ports.
func startEtcdOnce(ctx context.Context, binDir, dataDir, logDir string) (*Process, string, error) {
	client, err := freePort()
	if err != nil {
		return nil, "", err
	}
	peer, err := freePort()
	if err != nil {
		return nil, "", err
	}
	clientURL := fmt.Sprintf("http://127.0.0.1:%d", client)
	peerURL := fmt.Sprintf("http://127.0.0.1:%d", peer)
	args := append(etcdArgs("members", filepath.Join(dataDir, "etcd"), clientURL, peerURL, "members="+peerURL),
		"--quota-backend-bytes=4294967296")
	p, err := startProcess("etcd", filepath.Join(binDir, "etcd"), args, logDir)
	if err != nil {
		return nil, "", err
	}
	if err := waitHTTP(ctx, http.DefaultClient, clientURL+"/health", 60*time.Second, p); err != nil {
		p.Stop(5 * time.Second)
		return nil, "", portClash(fmt.Errorf("etcd: %w", err), p)
	}
	return p, clientURL, nil
}

// etcdArgs are the flags of one etcd member on loopback URLs, initial
// being the whole cluster's name=peerURL list.
func etcdArgs(name, dataDir, clientURL, peerURL, initial string) []string {
	return []string{
		"--name=" + name,
		"--data-dir=" + dataDir,
		"--listen-client-urls=" + clientURL,
		"--advertise-client-urls=" + clientURL,
		"--listen-peer-urls=" + peerURL,
		"--initial-advertise-peer-urls=" + peerURL,
		"--initial-cluster=" + initial,
		"--log-level=warn",
		"--unsafe-no-fsync=true",
	}
}

// waitHTTP polls url with client until it answers 200, the timeout passes
// or p exits.
func waitHTTP(ctx context.Context, client *http.Client, url string, timeout time.Duration, p *Process) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var last error
	for {
		if p != nil && !p.Running() {
			return fmt.Errorf("%s exited; see %s, which ends:%s", p.Name, p.Log, p.logTail(8))
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			err = fmt.Errorf("status %d", resp.StatusCode)
		}
		last = err
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s not ready after %s: %v", url, timeout, last)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
