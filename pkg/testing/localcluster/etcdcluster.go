package localcluster

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// StartEtcdCluster runs an etcd cluster of n members on free loopback
// ports, data under dir/etcd-<i>, logs in logDir, and returns the members
// and their client URLs once every member is healthy. On failure it stops
// what it started. A member that finds a chosen port taken starts the
// whole cluster again on fresh ports and empty data directories.
func StartEtcdCluster(ctx context.Context, binDir, dir, logDir string, n int) ([]*Process, []string, error) {
	type started struct {
		procs []*Process
		urls  []string
	}
	s, err := retryOnPortClash(func() (started, error) {
		procs, urls, err := startEtcdClusterOnce(ctx, binDir, dir, logDir, n)
		return started{procs, urls}, err
	})
	return s.procs, s.urls, err
}

// startEtcdClusterOnce is one attempt of StartEtcdCluster on fresh ports.
func startEtcdClusterOnce(ctx context.Context, binDir, dir, logDir string, n int) ([]*Process, []string, error) {
	type member struct{ name, client, peer string }
	members := make([]member, n)
	var initial []string
	for i := range members {
		client, err := freePort()
		if err != nil {
			return nil, nil, err
		}
		peer, err := freePort()
		if err != nil {
			return nil, nil, err
		}
		members[i] = member{fmt.Sprintf("etcd-%d", i), fmt.Sprintf("http://127.0.0.1:%d", client), fmt.Sprintf("http://127.0.0.1:%d", peer)}
		initial = append(initial, members[i].name+"="+members[i].peer)
	}
	var procs []*Process
	var urls []string
	stopAll := func() {
		for _, p := range procs {
			p.Stop(5 * time.Second)
		}
	}
	for _, m := range members {
		if err := os.RemoveAll(filepath.Join(dir, m.name)); err != nil {
			return nil, nil, fmt.Errorf("clear data of %s: %w", m.name, err)
		}
		args := etcdArgs(m.name, filepath.Join(dir, m.name), m.client, m.peer, strings.Join(initial, ","))
		p, err := startProcess(m.name, filepath.Join(binDir, "etcd"), args, logDir)
		if err != nil {
			stopAll()
			return nil, nil, err
		}
		procs = append(procs, p)
		urls = append(urls, m.client)
	}
	// A member is healthy once the cluster has a leader, so every member
	// must be running before any answers.
	for i, u := range urls {
		if err := waitHTTP(ctx, http.DefaultClient, u+"/health", 60*time.Second, procs[i]); err != nil {
			stopAll()
			err = fmt.Errorf("etcd cluster: %w", err)
			for _, p := range procs {
				err = portClash(err, p)
			}
			return nil, nil, err
		}
	}
	return procs, urls, nil
}
