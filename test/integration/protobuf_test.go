package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	clientv3 "go.etcd.io/etcd/client/v3"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/client-go/rest"

	mcoscheme "github.com/mco-org/mco/pkg/generated/clientset/versioned/scheme"
	"github.com/mco-org/mco/test/integration/framework"
)

// protobufMagic starts every value Kubernetes stores or serves as protobuf.
const protobufMagic = "k8s\x00"

// storedObject is one of mco's own kinds as the test reads it: its path on
// the API and its key in etcd.
type storedObject struct {
	path, key string
}

// legacyObjects are stored as an earlier mco stored them: JSON, under the
// same keys, before mco-apiserver starts.
var legacyObjects = map[storedObject]string{
	{"/apis/cluster.karmada.io/v1alpha1/clusters/legacy", "/registry/cluster.karmada.io/clusters/legacy"}: `{"apiVersion":"cluster.karmada.io/v1alpha1","kind":"Cluster",` +
		`"metadata":{"name":"legacy","uid":"6f1b9a8e-0000-4000-8000-000000000001","generation":1,"creationTimestamp":"2026-01-02T03:04:05Z"},` +
		`"spec":{"syncMode":"Push","apiEndpoint":"https://127.0.0.1:6443","taints":[{"key":"k","effect":"NoSchedule"}]},` +
		`"status":{"kubernetesVersion":"v1.36.3","conditions":[{"type":"Ready","status":"True","reason":"ClusterReady","message":"up","lastTransitionTime":"2026-01-02T03:04:05Z"}]}}`,
	{"/apis/work.karmada.io/v1alpha1/namespaces/karmada-es-member1/works/legacy", "/registry/work.karmada.io/works/karmada-es-member1/legacy"}: `{"apiVersion":"work.karmada.io/v1alpha1","kind":"Work",` +
		`"metadata":{"name":"legacy","namespace":"karmada-es-member1","uid":"6f1b9a8e-0000-4000-8000-000000000002","generation":1,"creationTimestamp":"2026-01-02T03:04:05Z"},` +
		`"spec":{"workload":{"manifests":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"default"},"data":{"z":"1","a":"2"}}]}}}`,
	{"/apis/work.karmada.io/v1alpha2/namespaces/default/resourcebindings/legacy", "/registry/work.karmada.io/resourcebindings/default/legacy"}: `{"apiVersion":"work.karmada.io/v1alpha2","kind":"ResourceBinding",` +
		`"metadata":{"name":"legacy","namespace":"default","uid":"6f1b9a8e-0000-4000-8000-000000000003","generation":1,"creationTimestamp":"2026-01-02T03:04:05Z"},` +
		`"spec":{"resource":{"apiVersion":"v1","kind":"ConfigMap","namespace":"default","name":"cm"},"replicas":2,"clusters":[{"name":"member1","replicas":2}]}}`,
}

// freshWork is written as these bytes: its manifest, keys out of order, must
// be stored as written.
const freshWork = `{"apiVersion":"work.karmada.io/v1alpha1","kind":"Work","metadata":{"name":"fresh","namespace":"karmada-es-member1"},` +
	`"spec":{"workload":{"manifests":[` + freshManifest + `]}}}`

const freshManifest = `{"kind":"ConfigMap","apiVersion":"v1","metadata":{"namespace":"default","name":"cm"},"data":{"z":"1","a":"2"}}`

// freshObjects are written through the API by this mco (with kubectl).
const freshObjects = `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: fresh}
spec: {syncMode: Push, apiEndpoint: "https://127.0.0.1:6443"}
---
apiVersion: work.karmada.io/v1alpha2
kind: ResourceBinding
metadata: {name: fresh, namespace: default}
spec:
  resource: {apiVersion: v1, kind: ConfigMap, namespace: default, name: cm}
  clusters: [{name: member1}]
`

// TestProtobufWireAndStorage: mco-apiserver stores mco's own kinds as
// protobuf under the keys it always used, reads objects an earlier mco
// stored as JSON and moves them to protobuf on their next write, answers
// protobuf to clients that ask for it, and JSON identical to what it
// answered for the same object stored as JSON.
func TestProtobufWireAndStorage(t *testing.T) {
	t.Parallel()
	etcdURL := startEtcd(t)
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{etcdURL}, DialTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for o, value := range legacyObjects {
		if _, err := cli.Put(ctx, o.key, value); err != nil {
			t.Fatalf("put %s: %v", o.key, err)
		}
	}

	s := framework.StartAPIServer(t, t.TempDir(), "--etcd-servers", etcdURL)
	s.MustKubectl(t, "", "create", "namespace", "karmada-es-member1")
	s.MustKubectl(t, freshObjects, "create", "-f", "-")
	client, err := rest.HTTPClientFor(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	call := func(method, path, accept string, body []byte, want int) ([]byte, string) {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, method, s.URL()+path, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Accept", accept)
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != want {
			t.Fatalf("%s %s (%s): %d %s %v", method, path, accept, resp.StatusCode, out, err)
		}
		return out, resp.Header.Get("Content-Type")
	}
	get := func(path, accept string) ([]byte, string) {
		t.Helper()
		return call(http.MethodGet, path, accept, nil, http.StatusOK)
	}
	call(http.MethodPost, "/apis/work.karmada.io/v1alpha1/namespaces/karmada-es-member1/works", "application/json", []byte(freshWork), http.StatusCreated)
	stored := func(key string) []byte {
		t.Helper()
		resp, err := cli.Get(ctx, key)
		if err != nil || len(resp.Kvs) != 1 {
			t.Fatalf("etcd %s: %v (%d values)", key, err, len(resp.Kvs))
		}
		return resp.Kvs[0].Value
	}
	// The same object read as JSON and as protobuf.
	sameBothWays := func(path string) {
		t.Helper()
		pb, contentType := get(path, "application/vnd.kubernetes.protobuf")
		if contentType != "application/vnd.kubernetes.protobuf" || !strings.HasPrefix(string(pb), protobufMagic) {
			t.Fatalf("GET %s as protobuf answered %q, starting %q", path, contentType, pb[:min(len(pb), 8)])
		}
		fromPB, _, err := mcoscheme.Codecs.UniversalDeserializer().Decode(pb, nil, nil)
		if err != nil {
			t.Fatalf("decode protobuf of %s: %v", path, err)
		}
		js, _ := get(path, "application/json")
		fromJSON, _, err := mcoscheme.Codecs.UniversalDeserializer().Decode(js, nil, nil)
		if err != nil {
			t.Fatalf("decode JSON of %s: %v", path, err)
		}
		if !apiequality.Semantic.DeepEqual(fromPB, fromJSON) {
			t.Errorf("%s differs between protobuf and JSON (-protobuf +JSON):\n%s", path, cmp.Diff(fromPB, fromJSON))
		}
	}

	t.Run("fresh objects are stored as protobuf under the same keys", func(t *testing.T) {
		for o := range legacyObjects {
			key := strings.Replace(o.key, "/legacy", "/fresh", 1)
			value := stored(key)
			if !bytes.HasPrefix(value, []byte(protobufMagic)) {
				t.Errorf("%s is stored as %q...", key, value[:min(len(value), 16)])
			}
			if strings.Contains(key, "/works/") && !bytes.Contains(value, []byte(freshManifest)) {
				t.Errorf("the Work's manifest is not kept as the JSON written: %q", value)
			}
			sameBothWays(strings.Replace(o.path, "/legacy", "/fresh", 1))
		}
	})

	t.Run("JSON-stored objects read back and move to protobuf on their next write", func(t *testing.T) {
		for o, value := range legacyObjects {
			before, _ := get(o.path, "application/json")
			var written, read map[string]any
			_ = json.Unmarshal([]byte(value), &written)
			_ = json.Unmarshal(before, &read)
			// Each field stored reads back (defaults fill in the rest).
			for field, want := range written["spec"].(map[string]any) {
				if diff := cmp.Diff(want, read["spec"].(map[string]any)[field]); diff != "" {
					t.Errorf("%s: spec.%s stored as JSON reads back otherwise (-stored +read):\n%s", o.path, field, diff)
				}
			}
			sameBothWays(o.path)

			resource := strings.Split(o.path, "/")
			kind, name := resource[len(resource)-2], resource[len(resource)-1]
			args := []string{"annotate", kind, name, "mco.test/rewritten=yes"}
			if strings.Contains(o.path, "/namespaces/") {
				args = append(args, "-n", resource[len(resource)-3])
			}
			s.MustKubectl(t, "", args...)
			if v := stored(o.key); !bytes.HasPrefix(v, []byte(protobufMagic)) {
				t.Errorf("%s is still stored as %q... after a write", o.key, v[:min(len(v), 16)])
			}
			after, _ := get(o.path, "application/json")
			if diff := cmp.Diff(comparable(t, before), comparable(t, after)); diff != "" {
				t.Errorf("%s reads otherwise as JSON once stored as protobuf (-JSON-stored +protobuf-stored):\n%s", o.path, diff)
			}
			sameBothWays(o.path)
		}
	})
}

// comparable is an object's JSON without what a write changes by design:
// resourceVersion, managedFields and the annotation written.
func comparable(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		t.Fatal(err)
	}
	meta := obj["metadata"].(map[string]any)
	delete(meta, "resourceVersion")
	delete(meta, "managedFields")
	delete(meta, "annotations")
	return obj
}
