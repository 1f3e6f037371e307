package protowatch

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"
)

var deploymentKind = appsv1.SchemeGroupVersion.WithKind("Deployment")

func deployment(name string) *appsv1.Deployment {
	created := metav1.NewTime(time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC))
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: "u-1", ResourceVersion: "7", Generation: 2,
			CreationTimestamp: created, Labels: map[string]string{"app": name}, Annotations: map[string]string{"a": "b"},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationApply,
				APIVersion: "apps/v1", Time: &created, FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:spec":{}}`)}}},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](3),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": name}},
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType, RollingUpdate: &appsv1.RollingUpdateDeployment{
				MaxSurge: ptr.To(intstr.FromString("25%")), MaxUnavailable: ptr.To(intstr.FromInt32(1))}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": name}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "pause",
					Ports: []corev1.ContainerPort{{ContainerPort: 8080, Protocol: corev1.ProtocolTCP}},
					Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
						corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("1.5Gi")}}}},
					TerminationGracePeriodSeconds: ptr.To[int64](30), SecurityContext: &corev1.PodSecurityContext{}},
			},
		},
		Status: appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 3, ReadyReplicas: 2, AvailableReplicas: 2,
			Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue,
				LastUpdateTime: created, LastTransitionTime: created, Reason: "MinimumReplicasAvailable", Message: "ok"}}},
	}
}

// TestSameAsJSON: what the protobuf path caches is the unstructured object
// a dynamic (JSON) informer would have cached, managedFields apart.
func TestSameAsJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		obj  runtime.Object
		gvk  schema.GroupVersionKind
	}{
		{"Deployment with status", deployment("web"), deploymentKind},
		{"Service", &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "s", Namespace: "ns"}, Spec: corev1.ServiceSpec{
			Type: corev1.ServiceTypeClusterIP, ClusterIPs: []string{"10.0.0.1"},
			Ports: []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromString("http")}}}}, corev1.SchemeGroupVersion.WithKind("Service")},
		{"ConfigMap", &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "ns"},
			Data: map[string]string{"k": "v", "empty": ""}, BinaryData: map[string][]byte{"b": {0, 1, 2}}}, corev1.SchemeGroupVersion.WithKind("ConfigMap")},
		{"Secret", &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s", Namespace: "ns"}, Type: corev1.SecretTypeOpaque,
			Data: map[string][]byte{"password": []byte("x")}}, corev1.SchemeGroupVersion.WithKind("Secret")},
		{"Job", &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "j", Namespace: "ns"}, Spec: batchv1.JobSpec{
			Parallelism: ptr.To[int32](2), BackoffLimit: ptr.To[int32](0)}, Status: batchv1.JobStatus{Succeeded: 1,
			StartTime: &metav1.Time{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}}}, batchv1.SchemeGroupVersion.WithKind("Job")},
		{"StatefulSet with claim templates", &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "st", Namespace: "ns"},
			Spec: appsv1.StatefulSetSpec{Replicas: ptr.To[int32](1), VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{
				ObjectMeta: metav1.ObjectMeta{Name: "data"}, Spec: corev1.PersistentVolumeClaimSpec{
					Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1G")}}}}}}},
			appsv1.SchemeGroupVersion.WithKind("StatefulSet")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := json.Marshal(tc.obj)
			if err != nil {
				t.Fatal(err)
			}
			want := &unstructured.Unstructured{}
			if err := want.UnmarshalJSON(withKind(t, raw, tc.gvk)); err != nil {
				t.Fatal(err)
			}
			want.SetManagedFields(nil)
			got, err := ToUnstructured(tc.obj.DeepCopyObject(), tc.gvk)
			if err != nil {
				t.Fatal(err)
			}
			if !apiequality.Semantic.DeepEqual(got.Object, want.Object) {
				gotJSON, _ := json.Marshal(got.Object)
				wantJSON, _ := json.Marshal(want.Object)
				t.Fatalf("protobuf path caches\n%s\nJSON path caches\n%s", gotJSON, wantJSON)
			}
		})
	}
}

// withKind adds apiVersion and kind to an object's JSON, as a server
// sends them.
func withKind(t *testing.T, raw []byte, gvk schema.GroupVersionKind) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	m["apiVersion"], m["kind"] = gvk.GroupVersion().String(), gvk.Kind
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestUnstructuredPassesThrough: the transform converts objects of the
// kind's Go type only; what it made (whatever next returned), unstructured
// objects, other types and tombstones come out as they went in.
func TestUnstructuredPassesThrough(t *testing.T) {
	wrap := func(obj any) (any, error) {
		u := obj.(*unstructured.Unstructured)
		return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: u.GetNamespace(), Name: u.GetName()}}, nil
	}
	for name, next := range map[string]cache.TransformFunc{"without next": nil, "with next": wrap} {
		transform := Unstructured(deploymentKind, next)
		once, err := transform(deployment("d"))
		if err != nil {
			t.Fatal(err)
		}
		twice, err := transform(once)
		if err != nil {
			t.Fatal(err)
		}
		if twice != once {
			t.Errorf("%s: a second pass changed %#v into %#v", name, once, twice)
		}
		if m, err := meta.Accessor(twice); err != nil || m.GetName() != "d" || m.GetNamespace() != "ns" {
			t.Errorf("%s: cached %#v", name, twice)
		}
		for _, other := range []any{&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c"}},
			&unstructured.Unstructured{Object: map[string]any{"kind": "Deployment"}},
			cache.DeletedFinalStateUnknown{Key: "ns/d", Obj: once}} {
			got, err := transform(other)
			if err != nil || !reflect.DeepEqual(got, other) {
				t.Errorf("%s: %T came out as %#v (%v)", name, other, got, err)
			}
		}
	}
}

func TestKnown(t *testing.T) {
	for gvk, want := range map[schema.GroupVersionKind]bool{
		deploymentKind: true,
		corev1.SchemeGroupVersion.WithKind("ConfigMap"):                              true,
		{Group: "policy.karmada.io", Version: "v1alpha1", Kind: "PropagationPolicy"}: false,
		{Group: "example.com", Version: "v1", Kind: "Widget"}:                        false,
		appsv1.SchemeGroupVersion.WithKind("Nothing"):                                false,
	} {
		if got := Known(gvk); got != want {
			t.Errorf("Known(%s) = %v, want %v", gvk, got, want)
		}
	}
}

// TestInformerSpeaksProtobuf runs an informer against a server that
// answers protobuf only: it asks for protobuf, applies the tweak, and
// caches the listed and the watched objects as unstructured ones, next
// applied.
func TestInformerSpeaksProtobuf(t *testing.T) {
	codec := protobuf.NewSerializer(scheme.Scheme, scheme.Scheme)
	raw := protobuf.NewRawSerializer(scheme.Scheme, scheme.Scheme) // watch events go without the envelope
	encodeWith := func(e runtime.Encoder, obj runtime.Object) []byte {
		var b strings.Builder
		if err := e.Encode(obj, &b); err != nil {
			t.Fatal(err)
		}
		return []byte(b.String())
	}
	encode := func(obj runtime.Object) []byte { return encodeWith(codec, obj) }
	var (
		mu      sync.Mutex
		accepts []string
		queries []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		accepts = append(accepts, r.Header.Get("Accept"))
		queries = append(queries, r.URL.Path+"?"+r.URL.RawQuery)
		mu.Unlock()
		if r.URL.Path != "/apis/apps/v1/namespaces/ns/deployments" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", runtime.ContentTypeProtobuf)
		if r.URL.Query().Get("watch") != "true" {
			list := &appsv1.DeploymentList{ListMeta: metav1.ListMeta{ResourceVersion: "10"}, Items: []appsv1.Deployment{*deployment("listed")}}
			list.SetGroupVersionKind(appsv1.SchemeGroupVersion.WithKind("DeploymentList"))
			_, _ = w.Write(encode(list))
			return
		}
		framer := protobuf.LengthDelimitedFramer.NewFrameWriter(w)
		send := func(typ string, obj *appsv1.Deployment) {
			obj.SetGroupVersionKind(deploymentKind)
			event := &metav1.WatchEvent{Type: typ, Object: runtime.RawExtension{Raw: encode(obj)}}
			_, _ = framer.Write(encodeWith(raw, event))
		}
		if r.URL.Query().Get("sendInitialEvents") == "true" { // a streaming list, as client-go asks first
			send("ADDED", deployment("listed"))
			send("BOOKMARK", &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "10",
				Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true"}}})
		}
		watched := deployment("watched")
		watched.ResourceVersion = "11"
		send("ADDED", watched)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()

	clients, err := NewClients(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	// next keeps what it is given as another type, as member caches do:
	// what the informer hands the transform again (an initial list is
	// transformed twice) must come out unchanged.
	nextSaw := 0
	next := func(obj any) (any, error) {
		u, ok := obj.(*unstructured.Unstructured)
		if !ok {
			return obj, nil
		}
		nextSaw++
		ready, _, _ := unstructured.NestedInt64(u.Object, "status", "readyReplicas")
		kept := &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: u.GetAPIVersion(), Kind: u.GetKind()},
			ObjectMeta: metav1.ObjectMeta{Namespace: u.GetNamespace(), Name: u.GetName(), ResourceVersion: u.GetResourceVersion(),
				Annotations: map[string]string{"ready": strconv.FormatInt(ready, 10), "managedFields": strconv.Itoa(len(u.GetManagedFields()))}}}
		return kept, nil
	}
	inf, err := clients.Informer(Resource{GVK: deploymentKind, Resource: "deployments", Namespace: "ns"}, 0,
		cache.Indexers{}, func(o *metav1.ListOptions) { o.LabelSelector = "mine" }, next)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	go inf.RunWithContext(ctx)
	for _, name := range []string{"listed", "watched"} {
		var obj any
		_ = wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, 20*time.Second, true, func(context.Context) (bool, error) {
			o, ok, _ := inf.GetStore().GetByKey("ns/" + name)
			obj = o
			return ok, nil
		})
		kept, ok := obj.(*metav1.PartialObjectMetadata)
		if !ok {
			t.Fatalf("%s: cached %T, want what next made", name, obj)
		}
		if kept.APIVersion != "apps/v1" || kept.Kind != "Deployment" || kept.Name != name || kept.Annotations["managedFields"] != "0" {
			t.Errorf("%s: cached %s %s %q with %s managedFields", name, kept.APIVersion, kept.Kind, kept.Name, kept.Annotations["managedFields"])
		}
		if ready := kept.Annotations["ready"]; ready != "2" {
			t.Errorf("%s: status.readyReplicas %s, want 2", name, ready)
		}
	}
	cancel()
	mu.Lock()
	defer mu.Unlock()
	for i, a := range accepts {
		if !strings.HasPrefix(a, runtime.ContentTypeProtobuf) {
			t.Errorf("request %s asked for %q, want protobuf first", queries[i], a)
		}
		if !strings.Contains(queries[i], "labelSelector=mine") {
			t.Errorf("request %s lacks the tweak's label selector", queries[i])
		}
	}
	if nextSaw < 2 {
		t.Errorf("next saw %d unstructured objects, want 2", nextSaw)
	}
}

// BenchmarkToUnstructured is what a template cache spends on one
// Deployment from the bytes on the wire (managedFields included, as
// servers send them) to the cached unstructured object: protobuf decoded
// into the Go type and converted, against JSON decoded into maps; and
// what each keeps in memory (live-B/obj, 2,000 kept).
func BenchmarkToUnstructured(b *testing.B) {
	typed := deployment("web")
	typed.SetGroupVersionKind(deploymentKind)
	jsonRaw, err := json.Marshal(typed)
	if err != nil {
		b.Fatal(err)
	}
	var pb strings.Builder
	if err := protobuf.NewSerializer(scheme.Scheme, scheme.Scheme).Encode(typed, &pb); err != nil {
		b.Fatal(err)
	}
	pbRaw := []byte(pb.String())
	decoder := scheme.Codecs.UniversalDeserializer()
	for _, c := range []struct {
		name    string
		convert func() (any, error)
	}{
		{"protobuf", func() (any, error) {
			obj, _, err := decoder.Decode(pbRaw, nil, nil)
			if err != nil {
				return nil, err
			}
			return ToUnstructured(obj, deploymentKind)
		}},
		{"JSON", func() (any, error) { u := &unstructured.Unstructured{}; return u, u.UnmarshalJSON(jsonRaw) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.convert(); err != nil {
					b.Fatal(err)
				}
			}
			kept := make([]any, 2000)
			var before, after goruntime.MemStats
			goruntime.GC()
			goruntime.ReadMemStats(&before)
			for i := range kept {
				kept[i], _ = c.convert()
			}
			goruntime.GC()
			goruntime.ReadMemStats(&after)
			b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(len(kept)), "live-B/obj")
			goruntime.KeepAlive(kept)
		})
	}
}
