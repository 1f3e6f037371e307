package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/mco-org/mco/hack/internal/benchkit"
)

// profileFull takes CPU profiles of mco-apiserver, mco-controller-manager,
// mco-scheduler and, with member, the first member's kube-apiserver,
// seconds long, into dir; it returns a function that waits for them.
// Failures are logged, not returned: profiles are an aid, not a
// measurement.
func (b *bench) profileFull(ctx context.Context, dir string, seconds int, member bool) (wait func()) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.logf("profiles: %v", err)
		return func() {}
	}
	query := "?seconds=" + strconv.Itoa(seconds)
	fetch := map[string]func(context.Context) ([]byte, error){
		"mco-apiserver": func(ctx context.Context) ([]byte, error) {
			return b.kube.CoreV1().RESTClient().Get().AbsPath("/debug/pprof/profile").Param("seconds", strconv.Itoa(seconds)).
				Timeout(time.Duration(seconds+30) * time.Second).DoRaw(ctx)
		},
		"member1-kube-apiserver": func(ctx context.Context) ([]byte, error) {
			return b.members[b.names[0]].CoreV1().RESTClient().Get().AbsPath("/debug/pprof/profile").Param("seconds", strconv.Itoa(seconds)).
				Timeout(time.Duration(seconds+30) * time.Second).DoRaw(ctx)
		},
		"mco-controller-manager": httpGet(fmt.Sprintf("http://127.0.0.1:%d/debug/pprof/profile%s", b.env.MCO.ControllerManagerPort, query)),
		"mco-scheduler":          httpGet(fmt.Sprintf("http://127.0.0.1:%d/debug/pprof/profile%s", b.env.MCO.SchedulerPort, query)),
	}
	if !member {
		delete(fetch, "member1-kube-apiserver")
	}
	var wg sync.WaitGroup
	for name, get := range fetch {
		wg.Add(1)
		go func() {
			defer wg.Done()
			raw, err := get(ctx)
			if err == nil {
				path := filepath.Join(dir, name+".cpu.pprof")
				if err = os.WriteFile(path, raw, 0o644); err == nil {
					b.logf("profile of %s: go tool pprof -top %s", name, path)
				}
			}
			if err != nil {
				b.logf("profile of %s: %v", name, err)
			}
		}()
	}
	return wg.Wait
}

func httpGet(url string) func(context.Context) ([]byte, error) {
	return func(ctx context.Context) ([]byte, error) { return benchkit.HTTPGet(ctx, url) }
}

// serialization reads the profiles of mco's processes in dir and sums
// their encoding and decoding CPU by content type.
func (b *bench) serialization(dir string) map[string]benchkit.Serialization {
	out := map[string]benchkit.Serialization{}
	for _, name := range mcoProcesses {
		raw, err := os.ReadFile(filepath.Join(dir, name+".cpu.pprof"))
		if err != nil {
			b.logf("serialization CPU of %s: %v", name, err)
			continue
		}
		s, err := benchkit.SerializationCPU(raw)
		if err != nil {
			b.logf("serialization CPU of %s: %v", name, err)
			continue
		}
		out[name] = s
	}
	return out
}

// serializationMs is the summary's form: per process, each category's
// CPU in ms and the profile's whole ("sampled").
func serializationMs(by map[string]benchkit.Serialization) map[string]map[string]float64 {
	if len(by) == 0 {
		return nil
	}
	out := map[string]map[string]float64{}
	for name, s := range by {
		m := map[string]float64{"sampled": benchkit.Round(benchkit.Ms(s.Total), 1)}
		for c, d := range s.By {
			m[c] = benchkit.Round(benchkit.Ms(d), 1)
		}
		out[name] = m
	}
	return out
}
