package benchkit

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// TestSerializationCPU: samples count for the innermost serializer on
// their stack, once; other samples only in the total.
func TestSerializationCPU(t *testing.T) {
	fn := map[string]*profile.Function{}
	loc := map[string]*profile.Location{}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10_000_000,
	}
	location := func(names ...string) *profile.Location { // innermost (inlined) first
		key := ""
		for _, n := range names {
			key += n + ";"
		}
		if l, ok := loc[key]; ok {
			return l
		}
		l := &profile.Location{ID: uint64(len(loc) + 1)}
		for _, n := range names {
			f, ok := fn[n]
			if !ok {
				f = &profile.Function{ID: uint64(len(fn) + 1), Name: n}
				fn[n] = f
				p.Function = append(p.Function, f)
			}
			l.Line = append(l.Line, profile.Line{Function: f})
		}
		loc[key] = l
		p.Location = append(p.Location, l)
		return l
	}
	sample := func(ms int64, stack ...*profile.Location) {
		p.Sample = append(p.Sample, &profile.Sample{Location: stack, Value: []int64{1, ms * int64(time.Millisecond)}})
	}
	const (
		jsonDecode  = "k8s.io/apimachinery/pkg/runtime/serializer/json.(*Serializer).Decode"
		protoEncode = "k8s.io/apimachinery/pkg/runtime/serializer/protobuf.(*Serializer).Encode"
		protoDecode = "k8s.io/apimachinery/pkg/runtime/serializer/protobuf.(*Serializer).Decode"
	)
	sample(30, location("encoding/json.Unmarshal"), location(jsonDecode), location("main.main"))
	// A RawExtension decoded as JSON inside a protobuf object counts as JSON.
	sample(20, location("encoding/json.Unmarshal", jsonDecode), location(protoDecode), location("main.main"))
	sample(10, location("runtime.memmove"), location(protoEncode))
	sample(40, location("runtime.gcBgMarkWorker"))
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := SerializationCPU(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]time.Duration{"json decode": 50 * time.Millisecond, "protobuf encode": 10 * time.Millisecond}
	if got.Total != 100*time.Millisecond || len(got.By) != len(want) {
		t.Fatalf("got %v", got)
	}
	for k, v := range want {
		if got.By[k] != v {
			t.Errorf("%s: %v, want %v", k, got.By[k], v)
		}
	}
	if s := got.String(); s != "json decode 50ms (50.0%), protobuf encode 10ms (10.0%) of 100ms sampled" {
		t.Errorf("String() = %q", s)
	}
}
