// Package roundtrip checks that API objects survive JSON, YAML and protobuf
// encoding: random objects are filled in, encoded, decoded (JSON strictly)
// and compared.
package roundtrip

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/apitesting/fuzzer"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metafuzzer "k8s.io/apimachinery/pkg/apis/meta/fuzzer"
	"k8s.io/apimachinery/pkg/runtime"
	runtimeserializer "k8s.io/apimachinery/pkg/runtime/serializer"
	"sigs.k8s.io/randfill"
	sigsyaml "sigs.k8s.io/yaml"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// apiFuncs fill the types whose random bytes would not be valid JSON.
func apiFuncs(runtimeserializer.CodecFactory) []any {
	return []any{
		func(j *policyv1alpha1.JSON, c randfill.Continue) {
			switch c.Intn(3) {
			case 0:
				j.Raw = nil
			case 1:
				// Plain letters: encoding/json rewrites <, > and & inside
				// raw values, which would change the bytes, not the value.
				j.Raw = []byte(fmt.Sprintf(`"value-%d"`, c.Intn(1000)))
			default:
				j.Raw = []byte(fmt.Sprintf(`{"key":%d}`, c.Intn(100)))
			}
		},
		func(j *apiextensionsv1.JSON, c randfill.Continue) {
			j.Raw = []byte(fmt.Sprintf(`{"key":%d}`, c.Intn(100)))
		},
		func(r *runtime.RawExtension, c randfill.Continue) {
			// Always an object: a RawExtension without bytes encodes as
			// null, which decodes into a nil pointer, not an empty value.
			r.Raw = []byte(fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm-%d"}}`, c.Intn(1000)))
		},
	}
}

// Check fills each of newObjs' objects iterations times from seed, encodes
// it as JSON, YAML and protobuf, decodes and fails t on any difference.
// Protobuf does not keep an empty list or map apart from a missing one; the
// comparison does not either (fields where that matters have their own
// test, EmptyAndMissing).
func Check(t *testing.T, seed int64, iterations int, newObjs ...func() runtime.Object) {
	t.Helper()
	funcs := fuzzer.MergeFuzzerFuncs(metafuzzer.Funcs, apiFuncs)
	filler := fuzzer.FuzzerFor(funcs, rand.NewSource(seed), runtimeserializer.CodecFactory{}).
		NilChance(0.3).NumElements(0, 3)
	for _, newObj := range newObjs {
		for i := 0; i < iterations; i++ {
			obj := newObj()
			filler.Fill(obj)
			if err := roundTrip(obj, newObj()); err != nil {
				t.Fatalf("%T, seed %d, iteration %d: %v", obj, seed, i, err)
			}
		}
	}
}

func roundTrip(in, out runtime.Object) error {
	data, err := json.Marshal(in)
	if err != nil {
		return fmt.Errorf("encode JSON: %w", err)
	}
	if err := sigsyaml.UnmarshalStrict(data, out); err != nil {
		return fmt.Errorf("strict decode of %s: %w", data, err)
	}
	if !apiequality.Semantic.DeepEqual(in, out) {
		return fmt.Errorf("JSON round trip changed the object (-in +out):\n%s", cmp.Diff(in, out))
	}
	y, err := sigsyaml.Marshal(in)
	if err != nil {
		return fmt.Errorf("encode YAML: %w", err)
	}
	again := out.DeepCopyObject()
	if err := sigsyaml.UnmarshalStrict(y, again); err != nil {
		return fmt.Errorf("strict decode of YAML %s: %w", y, err)
	}
	if !apiequality.Semantic.DeepEqual(in, again) {
		return fmt.Errorf("YAML round trip changed the object (-in +out):\n%s", cmp.Diff(in, again))
	}
	return protobufRoundTrip(in, out.DeepCopyObject())
}

// Message is what go-to-protobuf generates for a kind.
type Message interface {
	Marshal() ([]byte, error)
	Unmarshal([]byte) error
	Reset()
}

func protobufRoundTrip(in, out runtime.Object) error {
	msg, ok := in.(Message)
	if !ok {
		return fmt.Errorf("%T has no protobuf encoding", in)
	}
	data, err := msg.Marshal()
	if err != nil {
		return fmt.Errorf("encode protobuf: %w", err)
	}
	into := out.(Message)
	into.Reset()
	if err := into.Unmarshal(data); err != nil {
		return fmt.Errorf("decode protobuf: %w", err)
	}
	// TypeMeta is not part of the message: the envelope carries it.
	out.GetObjectKind().SetGroupVersionKind(in.GetObjectKind().GroupVersionKind())
	if !apiequality.Semantic.DeepEqual(in, out) {
		return fmt.Errorf("protobuf round trip changed the object (-in +out):\n%s", cmp.Diff(in, out))
	}
	return nil
}
