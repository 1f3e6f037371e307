package component

import (
	"fmt"
	"os"
	"runtime"

	"github.com/spf13/pflag"
	"k8s.io/klog/v2"
)

// procsFlag is the flag of ProcsOptions.
const procsFlag = "gomaxprocs"

// ProcsOptions set how many threads may run a component's Go code at once
// (the runtime's GOMAXPROCS). A component whose work is light gains
// nothing from more: with idle processors the runtime wakes and parks a
// thread for nearly every event it receives, which can cost more CPU than
// handling the event.
type ProcsOptions struct {
	// Max is the component's default; 0 leaves the runtime's own choice
	// (GOMAXPROCS when set, else the CPUs the process may use).
	Max int

	fs *pflag.FlagSet // tells a given flag from the default
}

// AddFlags registers --gomaxprocs.
func (o *ProcsOptions) AddFlags(fs *pflag.FlagSet) {
	o.fs = fs
	fs.IntVar(&o.Max, procsFlag, o.Max, "Threads that may run Go code at once, as GOMAXPROCS sets it; 0: the Go runtime's own choice (the CPUs the process may use). The GOMAXPROCS environment variable wins over the default, not over the flag.")
}

// Validate checks the flag.
func (o *ProcsOptions) Validate() error {
	if o.Max < 0 {
		return fmt.Errorf("--%s must be 0 or more, got %d", procsFlag, o.Max)
	}
	return nil
}

// Apply sets GOMAXPROCS as the flag, the environment and the default say,
// and logs what is in force.
func (o *ProcsOptions) Apply() error {
	if err := o.Validate(); err != nil {
		return err
	}
	n, from := o.decision(os.Getenv("GOMAXPROCS") != "")
	if n > 0 {
		runtime.GOMAXPROCS(n)
	}
	klog.InfoS("Go runtime processors", "gomaxprocs", runtime.GOMAXPROCS(0), "from", from)
	return nil
}

// decision is decideProcs for the parsed flag.
func (o *ProcsOptions) decision(envSet bool) (n int, from string) {
	given := o.fs != nil && o.fs.Changed(procsFlag)
	return decideProcs(o.Max, given, envSet)
}

// Where GOMAXPROCS comes from.
const (
	procsFromFlag    = "--" + procsFlag
	procsFromEnv     = "GOMAXPROCS"
	procsFromDefault = "default"
	procsFromRuntime = "runtime"
)

// decideProcs picks GOMAXPROCS from the flag's value: the flag's when
// given (0: the runtime's own), else the environment's (already applied by
// the runtime), else the value as the component's default. n is 0 when
// the runtime's setting stays.
func decideProcs(value int, given, envSet bool) (n int, from string) {
	switch {
	case given && value > 0:
		return value, procsFromFlag
	case given:
		return 0, procsFromRuntime
	case envSet:
		return 0, procsFromEnv
	case value > 0:
		return value, procsFromDefault
	}
	return 0, procsFromRuntime
}
