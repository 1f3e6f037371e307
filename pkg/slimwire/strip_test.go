package slimwire

import (
	"bytes"
	"encoding/binary"
	"io"
	"net/http"
	"testing"
	"testing/iotest"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/util/diff"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	mcoscheme "github.com/mco-org/mco/pkg/generated/clientset/versioned/scheme"
	"github.com/mco-org/mco/pkg/testing/builders"
)

var pb = protobuf.NewSerializer(mcoscheme.Scheme, mcoscheme.Scheme)

func managed(manager, fields string) metav1.ManagedFieldsEntry {
	at := metav1.NewTime(time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC))
	return metav1.ManagedFieldsEntry{Manager: manager, Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "work.karmada.io/v1alpha2",
		Time: &at, FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(fields)}
}

// binding is a ResourceBinding as mco-apiserver answers it: written by
// three managers, with status.
func binding(name string, managers bool) *workv1alpha2.ResourceBinding {
	b := builders.NewBinding(name).WithUID("u-"+name).WithReplicas(3).ScheduledTo("member1", 3).Build()
	b.TypeMeta = metav1.TypeMeta{APIVersion: "work.karmada.io/v1alpha2", Kind: "ResourceBinding"}
	b.Labels = map[string]string{"resourcebinding.karmada.io/permanent-id": "p-" + name}
	b.Annotations = map[string]string{"a": "b"}
	b.Finalizers = []string{"karmada.io/binding-controller"}
	b.ResourceVersion, b.Generation = "42", 2
	b.Status.SchedulerObservedGeneration = 2
	b.Status.AggregatedStatus = []workv1alpha2.AggregatedStatusItem{{ClusterName: "member1", Applied: true, Health: workv1alpha2.ResourceHealthy,
		Status: &runtime.RawExtension{Raw: []byte(`{"replicas":3,"readyReplicas":3}`)}}}
	if managers {
		b.ManagedFields = []metav1.ManagedFieldsEntry{
			managed("mco-controller-manager", `{"f:spec":{"f:replicas":{},"f:resource":{}}}`),
			managed("mco-scheduler", `{"f:spec":{"f:clusters":{}}}`),
			managed("mco-controller-manager", `{"f:status":{"f:aggregatedStatus":{}}}`),
		}
	}
	return b
}

func encode(t testing.TB, obj runtime.Object) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := pb.Encode(obj, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func decode(t testing.TB, data []byte) runtime.Object {
	t.Helper()
	obj, _, err := pb.Decode(data, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return obj
}

func TestStrip(t *testing.T) {
	list := &workv1alpha2.ResourceBindingList{TypeMeta: metav1.TypeMeta{APIVersion: "work.karmada.io/v1alpha2", Kind: "ResourceBindingList"},
		ListMeta: metav1.ListMeta{ResourceVersion: "50", Continue: "next"},
		Items:    []workv1alpha2.ResourceBinding{*binding("a", true), *binding("b", false), *binding("c", true)}}
	wantList := list.DeepCopy()
	for i := range wantList.Items {
		wantList.Items[i].ManagedFields = nil
		wantList.Items[i].TypeMeta = metav1.TypeMeta{} // a list's items carry none in protobuf
	}
	status := &metav1.Status{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Status"}, Status: metav1.StatusFailure, Code: 409, Reason: metav1.StatusReasonConflict}
	tests := []struct {
		name      string
		in        runtime.Object
		want      runtime.Object // nil: the same bytes
		unchanged bool
	}{
		{name: "an object loses its managedFields and nothing else", in: binding("a", true), want: binding("a", false)},
		{name: "a list's items lose theirs", in: list, want: wantList},
		{name: "an object without managedFields is passed as it is", in: binding("b", false), unchanged: true},
		{name: "a Status is passed as it is", in: status, unchanged: true},
		{name: "a kind the scheme does not know is passed as it is", in: unknownKind(t), unchanged: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := encode(t, tt.in)
			orig := bytes.Clone(data)
			got := Strip(data, components)
			if !bytes.Equal(data, orig) {
				t.Fatal("Strip modified its input")
			}
			if tt.unchanged {
				if &got[0] != &data[0] || len(got) != len(data) {
					t.Fatalf("got %d new bytes, want the input (%d bytes)", len(got), len(data))
				}
				return
			}
			if len(got) >= len(data) {
				t.Errorf("stripped %d bytes, want fewer than %d", len(got), len(data))
			}
			out := decode(t, got)
			if d := diff.Diff(tt.want, out); d != "" {
				t.Errorf("decoded after Strip (-want +got):\n%s", d)
			}
		})
	}
}

// unknownKind is a Deployment's protobuf labelled with a kind nobody
// registers.
func unknownKind(t *testing.T) runtime.Object {
	t.Helper()
	return &runtime.Unknown{TypeMeta: runtime.TypeMeta{APIVersion: "example.com/v1", Kind: "Gadget"},
		Raw: encodeRaw(t, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "g", ManagedFields: []metav1.ManagedFieldsEntry{managed("m", `{}`)}}})}
}

func encodeRaw(t *testing.T, d *appsv1.Deployment) []byte {
	t.Helper()
	raw, err := d.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestStripMalformed(t *testing.T) {
	full := encode(t, binding("a", true))
	for _, data := range [][]byte{
		nil,
		[]byte(`{"kind":"ResourceBinding"}`),
		full[:4],
		full[:len(full)/2],
		append(bytes.Clone(full[:4]), 0xff, 0xff, 0xff),
	} {
		if got := Strip(data, components); !bytes.Equal(got, data) {
			t.Errorf("Strip(%q) = %q, want its input", data, got)
		}
	}
}

// frame is one frame of a protobuf watch stream.
func frame(t *testing.T, typ watch.EventType, obj runtime.Object) []byte {
	t.Helper()
	ev := metav1.WatchEvent{Type: string(typ), Object: runtime.RawExtension{Raw: encode(t, obj)}}
	body, err := ev.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(body))), body...)
}

type answer struct {
	contentType, encoding string
	body                  []byte
}

func (a answer) RoundTrip(*http.Request) (*http.Response, error) {
	h := http.Header{"Content-Type": {a.contentType}}
	if a.encoding != "" {
		h.Set("Content-Encoding", a.encoding)
	}
	return &http.Response{StatusCode: 200, Header: h, Body: io.NopCloser(bytes.NewReader(a.body)), ContentLength: int64(len(a.body))}, nil
}

func roundTrip(t *testing.T, a answer) []byte {
	t.Helper()
	rt := Config(&rest.Config{}, components).WrapTransport(a)
	req, _ := http.NewRequest(http.MethodGet, "https://127.0.0.1/apis/work.karmada.io/v1alpha2/resourcebindings", nil)
	resp, err := rt.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	// One byte at a time: frames are passed on whatever the reads' sizes.
	got, err := io.ReadAll(iotest.OneByteReader(resp.Body))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestTransport(t *testing.T) {
	withMF, without := encode(t, binding("a", true)), encode(t, binding("a", false))
	stream := append(frame(t, watch.Added, binding("a", true)), frame(t, watch.Bookmark, binding("b", false))...)
	wantStream := append(frame(t, watch.Added, binding("a", false)), frame(t, watch.Bookmark, binding("b", false))...)
	tests := []struct {
		name string
		in   answer
		want []byte
	}{
		{name: "protobuf answer", in: answer{contentType: "application/vnd.kubernetes.protobuf", body: withMF}, want: without},
		{name: "watch stream", in: answer{contentType: "application/vnd.kubernetes.protobuf;stream=watch", body: stream}, want: wantStream},
		{name: "JSON", in: answer{contentType: "application/json", body: withMF}, want: withMF},
		{name: "compressed", in: answer{contentType: "application/vnd.kubernetes.protobuf", encoding: "gzip", body: withMF}, want: withMF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := roundTrip(t, tt.in); !bytes.Equal(got, tt.want) {
				t.Errorf("body of %d bytes, want %d", len(got), len(tt.want))
			}
		})
	}
}

func TestWatchStreamCut(t *testing.T) {
	stream := frame(t, watch.Added, binding("a", true))
	body := &watchBody{src: io.NopCloser(bytes.NewReader(stream[:len(stream)-3])), shapeOf: components}
	if _, err := io.ReadAll(body); err != io.ErrUnexpectedEOF {
		t.Errorf("a stream cut inside a frame: %v, want %v", err, io.ErrUnexpectedEOF)
	}
}

func TestShapes(t *testing.T) {
	tests := []struct {
		apiVersion, kind string
		want             Shape
	}{
		{"work.karmada.io/v1alpha2", "ResourceBinding", Object},
		{"work.karmada.io/v1alpha2", "ResourceBindingList", List},
		{"work.karmada.io/v1alpha1", "Work", Object},
		{"cluster.karmada.io/v1alpha1", "Cluster", Object},
		{"apps/v1", "Deployment", Object},
		{"v1", "ConfigMapList", List},
		{"meta.k8s.io/v1", "PartialObjectMetadataList", List},
		{"v1", "Status", Other},
		{"example.com/v1", "Gadget", Other},
		{"not/a/version", "Deployment", Other},
	}
	for _, tt := range tests {
		if got := components([]byte(tt.apiVersion), []byte(tt.kind)); got != tt.want {
			t.Errorf("%s %s: %v, want %v", tt.apiVersion, tt.kind, got, tt.want)
		}
	}
}

// BenchmarkDecodeBinding: decoding a ResourceBinding placed on three
// members as mco-apiserver sends it (the field sets of the
// controller-manager's create and status and of the scheduler's spec and
// status writes), and stripped first.
func BenchmarkDecodeBinding(b *testing.B) {
	rb := binding("a", false)
	rb.Spec.Clusters = []workv1alpha2.TargetCluster{{Name: "member1", Replicas: 1}, {Name: "member2", Replicas: 1}, {Name: "member3", Replicas: 1}}
	rb.Status.AggregatedStatus = nil
	for _, c := range rb.Spec.Clusters {
		rb.Status.AggregatedStatus = append(rb.Status.AggregatedStatus, workv1alpha2.AggregatedStatusItem{ClusterName: c.Name, Applied: true,
			Health: workv1alpha2.ResourceHealthy, Status: &runtime.RawExtension{Raw: []byte(`{"replicas":1,"updatedReplicas":1,"readyReplicas":1,"availableReplicas":1,"observedGeneration":1}`)}})
	}
	condition := func(typ string) string {
		return `"k:{\"type\":\"` + typ + `\"}":{".":{},"f:lastTransitionTime":{},"f:message":{},"f:observedGeneration":{},"f:reason":{},"f:status":{},"f:type":{}}`
	}
	rb.ManagedFields = []metav1.ManagedFieldsEntry{
		managed("mco-controller-manager", `{"f:metadata":{"f:annotations":{".":{},"f:policy.karmada.io/applied-placement":{},"f:propagationpolicy.karmada.io/name":{},`+
			`"f:propagationpolicy.karmada.io/namespace":{}},"f:finalizers":{".":{},"v:\"karmada.io/binding-controller\"":{}},"f:labels":{".":{},`+
			`"f:propagationpolicy.karmada.io/permanent-id":{},"f:resourcebinding.karmada.io/permanent-id":{}},"f:ownerReferences":{".":{},"k:{\"uid\":\"0f0c2a4e-5b1d-4c52-9a43-5f0e7f5b1c11\"}":{}}},`+
			`"f:spec":{".":{},"f:placement":{".":{},"f:clusterAffinity":{".":{},"f:clusterNames":{}},"f:replicaScheduling":{".":{},"f:replicaDivisionPreference":{},`+
			`"f:replicaSchedulingType":{},"f:weightPreference":{".":{},"f:staticWeightList":{}}}},"f:replicaRequirements":{".":{},"f:resourceRequest":{".":{},"f:cpu":{},"f:memory":{}}},`+
			`"f:replicas":{},"f:resource":{".":{},"f:apiVersion":{},"f:kind":{},"f:name":{},"f:namespace":{},"f:resourceVersion":{},"f:uid":{}}}}`),
		managed("mco-scheduler", `{"f:spec":{"f:clusters":{}}}`),
		managed("mco-scheduler", `{"f:status":{".":{},"f:conditions":{".":{},`+condition("Scheduled")+`},"f:lastScheduledTime":{},"f:schedulerObservedGeneration":{}}}`),
		managed("mco-controller-manager", `{"f:status":{"f:aggregatedStatus":{},"f:conditions":{`+condition("FullyApplied")+`}}}`),
	}
	data := encode(b, rb)
	b.Run("as sent", func(b *testing.B) {
		for b.Loop() {
			decode(b, data)
		}
	})
	b.Run("stripped", func(b *testing.B) {
		for b.Loop() {
			decode(b, Strip(data, components))
		}
	})
	b.Run("strip alone", func(b *testing.B) {
		for b.Loop() {
			Strip(data, components)
		}
	})
}
