package benchkit

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// Serialization is the CPU a component spent encoding and decoding API
// objects, by content type, over one CPU profile.
type Serialization struct {
	Total time.Duration            // every sample of the profile
	By    map[string]time.Duration // "json decode", "protobuf encode", ...
}

// serializers name the functions whose samples count as encoding or
// decoding: the apimachinery serializers every client and server path
// goes through (typed clients, watches, storage, responses), and the
// unstructured scheme of dynamic clients. A sample counts once, for the
// innermost of them on its stack.
var serializers = []struct{ category, function string }{
	{"json decode", "k8s.io/apimachinery/pkg/runtime/serializer/json.(*Serializer).Decode"},
	{"json decode", "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured.unstructuredJSONScheme.Decode"},
	{"json encode", "k8s.io/apimachinery/pkg/runtime/serializer/json.(*Serializer).Encode"},
	{"json encode", "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured.unstructuredJSONScheme.Encode"},
	{"protobuf decode", "k8s.io/apimachinery/pkg/runtime/serializer/protobuf.(*Serializer).Decode"},
	{"protobuf decode", "k8s.io/apimachinery/pkg/runtime/serializer/protobuf.(*RawSerializer).Decode"},
	{"protobuf encode", "k8s.io/apimachinery/pkg/runtime/serializer/protobuf.(*Serializer).Encode"},
	{"protobuf encode", "k8s.io/apimachinery/pkg/runtime/serializer/protobuf.(*RawSerializer).Encode"},
}

// SerializationCPU reads a CPU profile (as /debug/pprof/profile answers)
// and sums its samples by serializer.
func SerializationCPU(raw []byte) (Serialization, error) {
	p, err := profile.Parse(bytes.NewReader(raw))
	if err != nil {
		return Serialization{}, fmt.Errorf("parse profile: %w", err)
	}
	cpu := -1
	for i, st := range p.SampleType {
		if st.Type == "cpu" && st.Unit == "nanoseconds" {
			cpu = i
		}
	}
	if cpu < 0 {
		return Serialization{}, fmt.Errorf("not a CPU profile: sample types %v", p.SampleType)
	}
	out := Serialization{By: map[string]time.Duration{}}
	for _, s := range p.Sample {
		d := time.Duration(s.Value[cpu])
		out.Total += d
		if c := category(s); c != "" {
			out.By[c] += d
		}
	}
	return out, nil
}

// category is the serializer innermost on the sample's stack, if any.
func category(s *profile.Sample) string {
	for _, loc := range s.Location { // leaf first
		for _, line := range loc.Line { // inlined callees first
			name := line.Function.Name
			for _, f := range serializers {
				if name == f.function {
					return f.category
				}
			}
		}
	}
	return ""
}

// String lists the categories with CPU, largest first, with their share.
func (s Serialization) String() string {
	if s.Total == 0 {
		return "no samples"
	}
	names := make([]string, 0, len(s.By))
	for n := range s.By {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return s.By[names[i]] > s.By[names[j]] })
	parts := make([]string, 0, len(names)+1)
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s %s (%.1f%%)", n, s.By[n].Round(time.Millisecond), 100*float64(s.By[n])/float64(s.Total)))
	}
	if len(parts) == 0 {
		parts = append(parts, "none")
	}
	return strings.Join(parts, ", ") + fmt.Sprintf(" of %s sampled", s.Total.Round(time.Millisecond))
}
