package main

import (
	"context"

	"github.com/mco-org/mco/hack/internal/benchkit"
)

// profileFull takes CPU profiles of mco-apiserver, mco-controller-manager,
// mco-scheduler and, with member, the first member's kube-apiserver,
// seconds long, into dir; the function it returns waits for them and
// gives mco's processes' encoding and decoding CPU.
func (b *bench) profileFull(ctx context.Context, dir string, seconds int, member bool) (wait func() map[string]benchkit.Serialization) {
	fetch := benchkit.MCOProfiles(b.kube, b.env.MCO)
	if member {
		fetch["member1-kube-apiserver"] = benchkit.APIServerProfile(b.members[b.names[0]])
	}
	profiles := benchkit.ProfileCPU(ctx, dir, seconds, fetch, b.logf)
	return func() map[string]benchkit.Serialization {
		by := profiles()
		delete(by, "member1-kube-apiserver")
		if member {
			b.logf("CPU profiles in %s (go tool pprof -top)", dir)
		}
		return by
	}
}
