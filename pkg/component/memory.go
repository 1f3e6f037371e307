package component

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/klog/v2"
)

// MemoryOptions set the soft memory limit of a component's Go runtime (the
// limit GOMEMLIMIT sets): past it the garbage collector runs more often to
// stay under it, trading CPU for memory. A control plane given a memory
// budget (a small VM, a container's limit) holds its objects in it rather
// than in twice its live heap, Go's default headroom.
type MemoryOptions struct {
	// Limit is the limit as a quantity (e.g. 900Mi); empty: GOMEMLIMIT
	// when set, else Ratio of the cgroup's memory limit, else none.
	Limit string
	// Ratio is the share of the cgroup's memory limit taken as the soft
	// limit when neither Limit nor GOMEMLIMIT is given; 0 takes none.
	Ratio float64
}

// DefaultMemoryOptions leaves a tenth of a container's memory limit to
// what the Go runtime does not count (the embedded etcd's mapped database,
// thread stacks, the binary).
func DefaultMemoryOptions() MemoryOptions { return MemoryOptions{Ratio: 0.9} }

// AddFlags registers the memory flags.
func (o *MemoryOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Limit, "memory-limit", o.Limit, "Soft limit of the Go runtime's memory, as a quantity (e.g. 900Mi), as GOMEMLIMIT sets it: past it, garbage collection runs more often to stay under it, trading CPU for memory. Empty: GOMEMLIMIT when set, else --memory-limit-ratio of the memory limit of the process's cgroup (a container's limit), else none.")
	fs.Float64Var(&o.Ratio, "memory-limit-ratio", o.Ratio, "Share of the cgroup's memory limit taken as the soft memory limit when neither --memory-limit nor GOMEMLIMIT is given; 0 takes none.")
}

// Validate checks the flags.
func (o *MemoryOptions) Validate() error {
	if o.Ratio < 0 || o.Ratio > 1 {
		return fmt.Errorf("--memory-limit-ratio must be between 0 and 1, got %v", o.Ratio)
	}
	_, err := o.limit()
	return err
}

// limit is --memory-limit in bytes, 0 when empty.
func (o *MemoryOptions) limit() (int64, error) {
	if o.Limit == "" {
		return 0, nil
	}
	q, err := resource.ParseQuantity(o.Limit)
	if err != nil {
		return 0, fmt.Errorf("--memory-limit: %w", err)
	}
	if q.Sign() <= 0 {
		return 0, fmt.Errorf("--memory-limit must be positive, got %s", o.Limit)
	}
	return q.Value(), nil
}

// Apply sets the soft memory limit the flags, GOMEMLIMIT and the cgroup
// give, and logs it.
func (o *MemoryOptions) Apply() error {
	flag, err := o.limit()
	if err != nil {
		return err
	}
	envSet := os.Getenv("GOMEMLIMIT") != ""
	var cgroup int64
	if flag == 0 && !envSet && o.Ratio > 0 {
		self, err := os.ReadFile("/proc/self/cgroup")
		if err == nil {
			cgroup, err = CgroupMemoryLimit("/sys/fs/cgroup", self)
		}
		if err != nil {
			klog.InfoS("No cgroup memory limit read; no soft memory limit from it", "err", err)
		}
	}
	limit, from := decideMemoryLimit(flag, envSet, cgroup, o.Ratio)
	switch from {
	case fromFlag, fromCgroup:
		debug.SetMemoryLimit(limit)
	case fromEnv:
		limit = debug.SetMemoryLimit(-1) // the runtime read it at start
	}
	if from != "" {
		klog.InfoS("Soft memory limit", "bytes", limit, "from", from)
	}
	return nil
}

// Where a soft memory limit comes from.
const (
	fromFlag   = "--memory-limit"
	fromEnv    = "GOMEMLIMIT"
	fromCgroup = "cgroup"
)

// decideMemoryLimit picks the soft memory limit: the flag's, else
// GOMEMLIMIT's (already applied by the runtime; limit 0), else ratio of
// the cgroup's limit; from is "" when there is none.
func decideMemoryLimit(flag int64, envSet bool, cgroup int64, ratio float64) (limit int64, from string) {
	switch {
	case flag > 0:
		return flag, fromFlag
	case envSet:
		return 0, fromEnv
	case cgroup > 0 && ratio > 0:
		return int64(float64(cgroup) * ratio), fromCgroup
	}
	return 0, ""
}
