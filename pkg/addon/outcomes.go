package addon

import "sync"

// Outcome is what the binding controller made of an add-on in one cluster
// on its last pass, for the status controller to judge with the Works.
type Outcome struct {
	// Verdict of the decision (empty when the objects may go).
	Verdict Verdict
	// Err is why the cluster's objects could not be made: values, fetch or
	// render. What ran there before stays.
	Err string
	// Want is how many Works the cluster should have (0 when none are
	// written: waiting, blocked or failed).
	Want         int
	ChartVersion string
	ValuesHash   string
	// Revision is what the cluster is given: the Rollout's revision under
	// a ClusterRolloutPolicy, the Addon's generation otherwise.
	Revision int64
	// Rendered marks the Works made (addon.RenderedAnnotation).
	Rendered string
}

// Outcomes holds each add-on's latest Outcome per cluster, in memory: the
// binding controller passes over every binding when it starts, so they
// come back after a restart. It is safe for concurrent use.
type Outcomes struct {
	mu       sync.Mutex
	byAddon  map[string]map[string]Outcome
	onChange []func(addon string)
}

// NewOutcomes returns an empty store.
func NewOutcomes() *Outcomes {
	return &Outcomes{byAddon: map[string]map[string]Outcome{}}
}

// OnChange registers fn, called with an add-on's name whenever one of its
// outcomes changes or goes.
func (o *Outcomes) OnChange(fn func(addon string)) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.onChange = append(o.onChange, fn)
}

// Set records an add-on's outcomes, by cluster, for every cluster it is
// placed on now: clusters left out lose theirs.
func (o *Outcomes) Set(name string, outcomes map[string]Outcome) {
	o.mu.Lock()
	old := o.byAddon[name]
	changed := len(old) != len(outcomes)
	for c, out := range outcomes {
		if prev, ok := old[c]; !ok || prev != out {
			changed = true
		}
	}
	if changed {
		o.byAddon[name] = outcomes
	}
	fns := o.onChange
	o.mu.Unlock()
	if changed {
		for _, fn := range fns {
			fn(name)
		}
	}
}

// Get returns an add-on's outcomes by cluster and whether it has any on
// record; the map is not to be changed.
func (o *Outcomes) Get(name string) (map[string]Outcome, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	out, ok := o.byAddon[name]
	return out, ok
}

// Forget drops an add-on's outcomes.
func (o *Outcomes) Forget(name string) {
	o.mu.Lock()
	_, had := o.byAddon[name]
	delete(o.byAddon, name)
	fns := o.onChange
	o.mu.Unlock()
	if had {
		for _, fn := range fns {
			fn(name)
		}
	}
}
