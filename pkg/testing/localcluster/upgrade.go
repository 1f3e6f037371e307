package localcluster

import (
	"context"
	"fmt"
	"time"
)

// Upgrade moves a member in place to another Kubernetes version (empty:
// mco's own), as a cluster is upgraded one minor at a time: its
// kube-apiserver first, on the same etcd data, port and flags, then its
// kube-controller-manager and kube-scheduler. kwok and the nodes stay.
func (e *Env) Upgrade(ctx context.Context, name, version string) error {
	m := e.Member(name)
	if m == nil {
		return fmt.Errorf("upgrade: no member %q", name)
	}
	if err := restartWith(m.APIServer, memberBinary(e.BinDir, version, "kube-apiserver")); err != nil {
		return fmt.Errorf("upgrade member %s to %s: %w", name, version, err)
	}
	if err := waitHTTPS(ctx, m.URL()+"/readyz", e.PKI.Files, 90*time.Second, m.APIServer); err != nil {
		return fmt.Errorf("upgrade member %s to %s: %w", name, version, err)
	}
	for _, p := range []*Process{m.Controller, m.Scheduler} {
		if p == nil {
			continue
		}
		if err := restartWith(p, memberBinary(e.BinDir, version, p.Name)); err != nil {
			return fmt.Errorf("upgrade member %s to %s: %w", name, version, err)
		}
	}
	m.Spec.Version = version
	return e.save()
}

// restartWith stops p and starts bin in its place with p's arguments.
func restartWith(p *Process, bin string) error {
	p.Args[0] = bin
	return p.Restart()
}
