package benchkit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"time"

	"k8s.io/client-go/kubernetes"

	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// ProfileFetch answers one of a process's /debug/pprof/ endpoints: "heap",
// or "profile" (CPU) seconds long.
type ProfileFetch func(ctx context.Context, profile string, seconds int) ([]byte, error)

// APIServerProfile fetches a kube-apiserver's or mco-apiserver's profiles
// through its API.
func APIServerProfile(kube kubernetes.Interface) ProfileFetch {
	return func(ctx context.Context, profile string, seconds int) ([]byte, error) {
		r := kube.CoreV1().RESTClient().Get().AbsPath("/debug/pprof/" + profile)
		if seconds > 0 {
			r = r.Param("seconds", strconv.Itoa(seconds)).Timeout(time.Duration(seconds+30) * time.Second)
		}
		return r.DoRaw(ctx)
	}
}

// PortProfile fetches a component's profiles from its health and metrics
// port (base URL).
func PortProfile(base string) ProfileFetch {
	return func(ctx context.Context, profile string, seconds int) ([]byte, error) {
		url := base + "/debug/pprof/" + profile
		if seconds > 0 {
			url += "?seconds=" + strconv.Itoa(seconds)
		}
		return HTTPGet(ctx, url)
	}
}

// MCOProfiles are the fetches of mco's three processes.
func MCOProfiles(kube kubernetes.Interface, mco *localcluster.ControlPlane) map[string]ProfileFetch {
	return map[string]ProfileFetch{
		"mco-apiserver":          APIServerProfile(kube),
		"mco-controller-manager": PortProfile(mco.ControllerManagerURL()),
		"mco-scheduler":          PortProfile(mco.SchedulerURL()),
	}
}

// ProfileCPU takes every profile of fetch at once, seconds long, into
// dir/<name>.cpu.pprof. The function it returns waits for them and gives
// each one's encoding and decoding CPU. Failures are logged, not
// returned: profiles are an aid, not a measurement.
func ProfileCPU(ctx context.Context, dir string, seconds int, fetch map[string]ProfileFetch, logf func(string, ...any)) (wait func() map[string]Serialization) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		logf("profiles: %v", err)
		return func() map[string]Serialization { return nil }
	}
	var (
		wg  sync.WaitGroup
		mu  sync.Mutex
		out = map[string]Serialization{}
	)
	for name, get := range fetch {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := profileOne(ctx, filepath.Join(dir, name+".cpu.pprof"), seconds, get)
			if err != nil {
				logf("profile of %s: %v", name, err)
				return
			}
			mu.Lock()
			out[name] = s
			mu.Unlock()
		}()
	}
	return func() map[string]Serialization {
		wg.Wait()
		return out
	}
}

func profileOne(ctx context.Context, path string, seconds int, get ProfileFetch) (Serialization, error) {
	raw, err := get(ctx, "profile", seconds)
	if err != nil {
		return Serialization{}, err
	}
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		return Serialization{}, err
	}
	return SerializationCPU(raw)
}

// SerializationMs is the JSON summaries' form: per process, each
// category's CPU in ms and the profile's whole ("sampled").
func SerializationMs(by map[string]Serialization) map[string]map[string]float64 {
	if len(by) == 0 {
		return nil
	}
	out := map[string]map[string]float64{}
	for name, s := range by {
		m := map[string]float64{"sampled": Round(Ms(s.Total), 1)}
		for c, d := range s.By {
			m[c] = Round(Ms(d), 1)
		}
		out[name] = m
	}
	return out
}

// SerializationLines are the report's lines, one per process, in order.
func SerializationLines(by map[string]Serialization) []string {
	names := make([]string, 0, len(by))
	for n := range by {
		names = append(names, n)
	}
	sort.Strings(names)
	lines := make([]string, 0, len(names))
	for _, n := range names {
		lines = append(lines, fmt.Sprintf("%-22s %s", n, by[n]))
	}
	return lines
}
