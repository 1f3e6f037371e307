package framework

import (
	"sync/atomic"
	"time"
)

// Extension point names, as metrics label them.
const (
	ExtensionPreFilter = "PreFilter"
	ExtensionFilter    = "Filter"
	ExtensionScore     = "Score"
)

// Observer receives the durations of extension points and plugins, for
// metrics. Plugin timings are sampled: every pluginSampleEvery-th binding.
type Observer interface {
	ObserveExtensionPoint(point, result string, seconds float64)
	ObservePlugin(plugin, point, result string, seconds float64)
}

// pluginSampleEvery bounds the cost of timing every plugin call.
const pluginSampleEvery = 10

// observing holds the observer and the sample counter.
type observing struct {
	observer Observer
	cycles   atomic.Uint64
}

// SetObserver makes the framework report durations to o.
func (f *Framework) SetObserver(o Observer) {
	f.obs = &observing{observer: o}
}

// sampled tells whether this pass times individual plugin calls.
func (f *Framework) sampled() bool {
	return f.obs != nil && f.obs.cycles.Add(1)%pluginSampleEvery == 1
}

func (f *Framework) observePoint(point string, st *Status, start time.Time) {
	if f.obs != nil {
		f.obs.observer.ObserveExtensionPoint(point, st.Code().String(), time.Since(start).Seconds())
	}
}

func (f *Framework) observePlugin(plugin, point string, st *Status, start time.Time) {
	f.obs.observer.ObservePlugin(plugin, point, st.Code().String(), time.Since(start).Seconds())
}
