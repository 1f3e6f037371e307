package localcluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Options describe the environment to bring up.
type Options struct {
	// Dir holds state, PKI, data and logs (logs under Dir/logs).
	Dir string
	// BinDir holds etcd, kube-apiserver, ... and kwok-stages.yaml.
	BinDir string
	// Members to start.
	Members []MemberSpec
	// ControlPlane starts mco-apiserver and joins every member to it.
	ControlPlane bool
	// BareMembers runs each member as a kube-apiserver only: no
	// kube-controller-manager, kube-scheduler, kwok or nodes. Objects mco
	// pushes are stored and nothing acts on them, so that only mco's path
	// costs anything (benchmarks). Join then takes mco's token from the
	// TokenRequest API, there being no token controller.
	BareMembers bool
	// StaticNodes registers a bare member's Nodes as objects that are
	// Ready as written and that nothing maintains (no kubelet, no kwok),
	// so that mco sees their capacity and can divide replicas by it.
	StaticNodes bool
	// HA makes the control plane highly available (ha.go): an etcd
	// cluster, two apiservers behind a load balancer, two of each
	// component. LBCommand runs the load balancer (it gets --listen=ADDR
	// and --backend=ADDR flags).
	HA        bool
	LBCommand []string
	// ExternalEtcd runs mco-apiserver on an etcd process of its own
	// rather than its embedded one (benchmarks: the apiserver's memory
	// without the database's).
	ExternalEtcd bool
	// MCOAPIServerArgs are extra flags of mco-apiserver (benchmarks try
	// settings with them, e.g. --feature-gates).
	MCOAPIServerArgs []string
	// MCOComponentArgs are extra flags of mco-scheduler and
	// mco-controller-manager, by binary name.
	MCOComponentArgs map[string][]string
	// Aggregated runs mco behind a host cluster (aggregated.go): a bare
	// kube-apiserver with the aggregation layer on (plus
	// HostAPIServerArgs) that mco-apiserver registers in; the components
	// and every client go through the host, the components as Identities
	// gives (the host's admin when nil). Members are joined through it.
	Aggregated        bool
	HostAPIServerArgs []string
	Identities        Identities
	// Timing sets how soon mco sees a member's health change
	// (DefaultTiming when nil).
	Timing *Timing
}

// Env is a running set of member clusters (and mco), persisted in
// Dir/state.json so that another process can stop, pause or resume it.
type Env struct {
	Dir        string    `json:"dir"`
	BinDir     string    `json:"binDir"`
	KwokStages string    `json:"kwokStages"`
	PKI        PKI       `json:"pki"`
	Etcd       *Process  `json:"etcd"`
	EtcdURL    string    `json:"etcdURL"`
	Members    []*Member `json:"members"`
	// Host is the cluster mco-apiserver is aggregated into, if any.
	Host *Member       `json:"host,omitempty"`
	MCO  *ControlPlane `json:"mco,omitempty"`
	// Timing is what mco-controller-manager and the agents run with.
	Timing Timing `json:"timing"`
	// ComponentArgs are Options.MCOComponentArgs.
	ComponentArgs map[string][]string `json:"componentArgs,omitempty"`
}

const stateFile = "state.json"

// Up starts etcd, the members (concurrently) with their fake nodes and,
// when asked, mco joined to every member. It returns once every member has
// Ready nodes (bare members: a ready kube-apiserver). On failure, or a
// panic, it stops what it started.
func Up(ctx context.Context, o Options) (env *Env, err error) {
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, err
	}
	env = &Env{Dir: o.Dir, BinDir: o.BinDir, KwokStages: filepath.Join(o.BinDir, "kwok-stages.yaml"), Timing: DefaultTiming(),
		ComponentArgs: o.MCOComponentArgs}
	if o.Timing != nil {
		env.Timing = *o.Timing
	}
	if err := env.Timing.Validate(); err != nil {
		return nil, err
	}
	defer func() {
		// A panic (in an Identities hook, say) stops what was started too.
		if r := recover(); r != nil {
			env.Down()
			panic(r)
		}
		if err != nil {
			env.Down()
		}
	}()
	if env.PKI, err = ensurePKI(filepath.Join(o.Dir, "pki")); err != nil {
		return env, err
	}
	logDir := filepath.Join(o.Dir, "logs")
	if env.Etcd, env.EtcdURL, err = startEtcd(ctx, o.BinDir, o.Dir, logDir); err != nil {
		return env, err
	}
	if err := env.save(); err != nil {
		return env, err
	}
	if _, err := aggregatorArgs(frontProxyDir(env)); err != nil {
		return env, err
	}
	members := make([]*Member, len(o.Members))
	errs := make([]error, len(o.Members))
	var wg sync.WaitGroup
	for i, spec := range o.Members {
		wg.Add(1)
		go func() {
			defer wg.Done()
			members[i], errs[i] = startMember(ctx, env, spec, o.BareMembers)
			switch {
			case errs[i] != nil:
			case !o.BareMembers:
				errs[i] = members[i].addNodes(ctx)
			case o.StaticNodes:
				errs[i] = members[i].addStaticNodes(ctx)
			}
		}()
	}
	var hostErr error
	if o.Aggregated {
		wg.Add(1)
		go func() {
			defer wg.Done()
			env.Host, hostErr = startHost(ctx, env, o.HostAPIServerArgs)
		}()
	}
	wg.Wait()
	errs = append(errs, hostErr)
	for _, m := range members {
		if m != nil {
			env.Members = append(env.Members, m)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return env, err
	}
	if err := env.save(); err != nil {
		return env, err
	}
	if o.ControlPlane {
		start := func(ctx context.Context, env *Env) (*ControlPlane, error) {
			return startControlPlane(ctx, env, o.ExternalEtcd, o.MCOAPIServerArgs)
		}
		switch {
		case o.Aggregated:
			start = func(ctx context.Context, env *Env) (*ControlPlane, error) {
				return startAggregatedControlPlane(ctx, env, o.Identities)
			}
		case o.HA:
			start = func(ctx context.Context, env *Env) (*ControlPlane, error) {
				return startHAControlPlane(ctx, env, o.LBCommand)
			}
		}
		if env.MCO, err = start(ctx, env); err != nil {
			return env, err
		}
		if err := env.save(); err != nil {
			return env, err
		}
		if err := env.joinAll(ctx, o.BareMembers); err != nil {
			return env, err
		}
	}
	return env, nil
}

// addNodes creates the member's fake nodes and waits until they are Ready.
func (m *Member) addNodes(ctx context.Context) error {
	client, err := m.Client()
	if err != nil {
		return err
	}
	n, err := createNodes(ctx, client, m.Spec, false, m.KwokPort)
	if err != nil {
		return fmt.Errorf("member %s: %w", m.Spec.Name, err)
	}
	if err := m.registerMetricsAPI(ctx); err != nil {
		return err
	}
	if err := waitNodesReady(ctx, client, n, 2*time.Minute); err != nil {
		return fmt.Errorf("member %s: %w", m.Spec.Name, err)
	}
	return nil
}

// addStaticNodes creates a bare member's nodes, Ready from the start.
func (m *Member) addStaticNodes(ctx context.Context) error {
	client, err := m.Client()
	if err != nil {
		return err
	}
	if _, err := createNodes(ctx, client, m.Spec, true, 0); err != nil {
		return fmt.Errorf("member %s: %w", m.Spec.Name, err)
	}
	return nil
}

// Load reads the state of an environment started by another process.
func Load(dir string) (*Env, error) {
	env := &Env{}
	if err := readJSON(filepath.Join(dir, stateFile), env); err != nil {
		return nil, fmt.Errorf("no environment in %s: %w", dir, err)
	}
	if env.Timing == (Timing{}) {
		env.Timing = DefaultTiming() // written before timings were kept
	}
	return env, nil
}

func (e *Env) save() error { return writeJSON(filepath.Join(e.Dir, stateFile), e) }

// Member returns the named member, or nil.
func (e *Env) Member(name string) *Member {
	for _, m := range e.Members {
		if m.Spec.Name == name {
			return m
		}
	}
	return nil
}

// Processes lists every process of the environment in stop order.
func (e *Env) Processes() []*Process {
	var out []*Process
	// Agents first: stopped while mco is there, they stop quietly.
	for _, m := range e.Members {
		if m.Agent != nil {
			out = append(out, m.Agent)
		}
	}
	if e.MCO != nil {
		out = append(out, e.MCO.Processes()...)
	}
	for _, m := range e.Members {
		out = append(out, m.Processes()...)
	}
	if e.Host != nil {
		out = append(out, e.Host.Processes()...)
	}
	return append(out, e.Etcd)
}

// Down stops every process of the environment, by pid, and removes the
// state file. Data and logs stay.
func (e *Env) Down() {
	for _, p := range e.Processes() {
		if p != nil {
			p.Stop(10 * time.Second)
		}
	}
	_ = os.Remove(filepath.Join(e.Dir, stateFile))
}

// Save records changed pids (after a member's apiserver is restarted).
func (e *Env) Save() error { return e.save() }
