package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/testing/localcluster"
	"github.com/mco-org/mco/test/e2e/framework"
)

// The example kinds and their customizations, as a user applies them.
const examples = "../../artifacts/examples/interpreter/"

var (
	webapps   = schema.GroupVersionResource{Group: "demo.example.com", Version: "v1", Resource: "webapps"}
	batchruns = schema.GroupVersionResource{Group: "demo.example.com", Version: "v1", Resource: "batchruns"}
)

// readExample returns one of the example files.
func readExample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(examples + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// installExampleKinds applies the WebApp and BatchRun CRDs, their
// customizations and a ClusterPropagationPolicy carrying the CRDs to
// member1 and member2 (left in place), once for the tests that run side
// by side: a second apply while the first still creates would conflict.
func installExampleKinds(t *testing.T) {
	t.Helper()
	exampleKinds.Lock()
	defer exampleKinds.Unlock()
	if exampleKinds.installed {
		return
	}
	kubectl(t, strings.Join([]string{
		readExample(t, "webapp-crd.yaml"), readExample(t, "batchrun-crd.yaml"),
		readExample(t, "webapp-customization.yaml"), readExample(t, "batchrun-customization.yaml"),
		`apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: example-crds}
spec:
  resourceSelectors:
  - {apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: webapps.demo.example.com}
  - {apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: batchruns.demo.example.com}
  placement: {clusterAffinity: {clusterNames: [member1, member2]}}
`}, "---\n"), "apply", "-f", "-")
	crds := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	waitInMembers(t, []string{"member1", "member2"}, []memberObject{
		{crds, "", "webapps.demo.example.com"}, {crds, "", "batchruns.demo.example.com"},
	}, true)
	exampleKinds.installed = true
}

// exampleKinds records whether installExampleKinds has run.
var exampleKinds struct {
	sync.Mutex
	installed bool
}

// webAppYAML is a WebApp with a ConfigMap it reads and its policy: Divided
// 1:1 over member1 and member2, with its dependencies, plus extra policy
// lines (indented two spaces).
func webAppYAML(ns, name string, replicas int, extra string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: ConfigMap
metadata: {name: %[2]s-config, namespace: %[1]s}
data: {greeting: hello}
---
apiVersion: demo.example.com/v1
kind: WebApp
metadata: {name: %[2]s, namespace: %[1]s}
spec:
  replicas: %[3]d
  image: nginx:1.27
  resources: {cpu: 100m, memory: 64Mi}
  configRef: %[2]s-config
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: %[2]s, namespace: %[1]s}
spec:
  resourceSelectors: [{apiVersion: demo.example.com/v1, kind: WebApp, name: %[2]s}]
  propagateDeps: true
%[4]s  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
%[5]s`, ns, name, replicas, extra, splitEvenly)
}

// memberInt reads an integer field of a member's copy (-1 when absent).
func memberInt(ctx context.Context, t *testing.T, member string, gvr schema.GroupVersionResource, ns, name string, path ...string) int64 {
	o, err := memberDynamic(t, member).Resource(gvr).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return -1
	}
	v, ok, _ := unstructured.NestedInt64(o.Object, path...)
	if !ok {
		return -1
	}
	return v
}

// operate acts as the kind's operator in a member: it changes the member's
// copy with mutate, through the status subresource when status is true.
func operate(t *testing.T, member string, gvr schema.GroupVersionResource, ns, name string, status bool, mutate func(o *unstructured.Unstructured)) {
	t.Helper()
	client := memberDynamic(t, member).Resource(gvr).Namespace(ns)
	eventually(t, 30*time.Second, fmt.Sprintf("update %s %s/%s in %s", gvr.Resource, ns, name, member), func(ctx context.Context) (bool, string) {
		o, err := client.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		mutate(o)
		if status {
			_, err = client.UpdateStatus(ctx, o, metav1.UpdateOptions{})
		} else {
			_, err = client.Update(ctx, o, metav1.UpdateOptions{})
		}
		return err == nil, fmt.Sprint(err)
	})
}

// mcoObject reads a template on mco.
func mcoObject(ctx context.Context, t *testing.T, gvr schema.GroupVersionResource, ns, name string) (*unstructured.Unstructured, error) {
	return mcoDynamic(t).Resource(gvr).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
}

func mcoDynamic(t *testing.T) dynamic.Interface {
	t.Helper()
	cfg, err := localcluster.RESTConfig(framework.Env.MCO.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	return dynamic.NewForConfigOrDie(cfg)
}

// TestResourceInterpreter: two operator-style kinds of the test's own,
// taught to mco by ResourceInterpreterCustomizations applied with kubectl.
// A WebApp is divided over two members by its GetReplicas and
// ReviseReplica, takes its ConfigMap along, keeps the endpoint a member's
// operator writes across an update, and its status is summed on mco; a
// BatchRun's completion is aggregated; a failing script shows as a
// condition and an Event and clears when fixed; and kubectl mco interpret,
// offline, answers as the controllers did.
func TestResourceInterpreter(t *testing.T) {
	framework.Parallel(t)
	installExampleKinds(t)
	ns := namespace(t, "e2e-interpreter")
	applyUntilMapped(t, webAppYAML(ns, "web", 4, "")+`---
apiVersion: demo.example.com/v1
kind: BatchRun
metadata: {name: nightly, namespace: `+ns+`}
spec: {parallelism: 2, command: report}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: nightly, namespace: `+ns+`}
spec:
  resourceSelectors: [{apiVersion: demo.example.com/v1, kind: BatchRun, name: nightly}]
  placement: {clusterAffinity: {clusterNames: [member1, member2]}}
`)
	ctx := context.Background()

	// Divided 1:1: each member's copy has 2 replicas, set by ReviseReplica.
	eventually(t, 90*time.Second, "WebApp web with 2 replicas in member1 and member2", func(ctx context.Context) (bool, string) {
		r1 := memberInt(ctx, t, "member1", webapps, ns, "web", "spec", "replicas")
		r2 := memberInt(ctx, t, "member2", webapps, ns, "web", "spec", "replicas")
		return r1 == 2 && r2 == 2, fmt.Sprintf("member1 %d, member2 %d", r1, r2)
	})
	// The ConfigMap GetDependencies names follows it.
	configMaps := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	waitInMembers(t, []string{"member1", "member2"}, []memberObject{{configMaps, ns, "web-config"}}, true)

	// The members' operators report; AggregateStatus sums on mco.
	for _, m := range []string{"member1", "member2"} {
		operate(t, m, webapps, ns, "web", true, func(o *unstructured.Unstructured) {
			_ = unstructured.SetNestedMap(o.Object, map[string]any{"replicas": int64(2), "readyReplicas": int64(2)}, "status")
		})
	}
	eventually(t, 60*time.Second, "WebApp web's status summed on mco", func(ctx context.Context) (bool, string) {
		o, err := mcoObject(ctx, t, webapps, ns, "web")
		if err != nil {
			return false, err.Error()
		}
		st, _, _ := unstructured.NestedMap(o.Object, "status")
		want := map[string]any{"replicas": int64(4), "readyReplicas": int64(4), "clusters": int64(2)}
		return reflect.DeepEqual(st, want), fmt.Sprintf("status %v", st)
	})

	// Retain: the endpoint member1's operator writes survives an update.
	operate(t, "member1", webapps, ns, "web", false, func(o *unstructured.Unstructured) {
		_ = unstructured.SetNestedField(o.Object, "https://web.member1.example", "spec", "endpoint")
	})
	kubectl(t, "", "-n", ns, "patch", "webapp", "web", "--type=merge", "-p", `{"spec":{"image":"nginx:1.28"}}`)
	eventually(t, 60*time.Second, "member1's WebApp at nginx:1.28 with its endpoint", func(ctx context.Context) (bool, string) {
		o, err := memberDynamic(t, "member1").Resource(webapps).Namespace(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		image, _, _ := unstructured.NestedString(o.Object, "spec", "image")
		endpoint, _, _ := unstructured.NestedString(o.Object, "spec", "endpoint")
		return image == "nginx:1.28" && endpoint == "https://web.member1.example", fmt.Sprintf("image %q endpoint %q", image, endpoint)
	})

	compareInterpretWithControllers(t, ns)

	// BatchRun: Complete on mco once every member's run is.
	rb := names.Binding("BatchRun", "nightly")
	for m, phase := range map[string]string{"member1": "Complete", "member2": "Running"} {
		operate(t, m, batchruns, ns, "nightly", true, func(o *unstructured.Unstructured) {
			_ = unstructured.SetNestedMap(o.Object, map[string]any{"phase": phase, "succeeded": int64(2)}, "status")
		})
	}
	batchPhase := func(want string, succeeded int64) {
		t.Helper()
		eventually(t, 60*time.Second, "BatchRun nightly "+want+" on mco", func(ctx context.Context) (bool, string) {
			o, err := mcoObject(ctx, t, batchruns, ns, "nightly")
			if err != nil {
				return false, err.Error()
			}
			phase, _, _ := unstructured.NestedString(o.Object, "status", "phase")
			got, _, _ := unstructured.NestedInt64(o.Object, "status", "succeeded")
			return phase == want && got == succeeded, fmt.Sprintf("status %v", o.Object["status"])
		})
	}
	batchPhase("Running", 4)
	operate(t, "member2", batchruns, ns, "nightly", true, func(o *unstructured.Unstructured) {
		_ = unstructured.SetNestedField(o.Object, "Complete", "status", "phase")
	})
	batchPhase("Complete", 4)

	// A script that errs: a condition and an Event on the binding; the
	// members keep what they run; fixed, the condition clears.
	_, mco := mcoClients(t)
	interpreted := func(want metav1.ConditionStatus, reason string) {
		t.Helper()
		eventually(t, 60*time.Second, fmt.Sprintf("binding %s Interpreted=%s", rb, want), func(ctx context.Context) (bool, string) {
			b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, rb, metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			c := meta.FindStatusCondition(b.Status.Conditions, "Interpreted")
			return c != nil && c.Status == want && c.Reason == reason, fmt.Sprintf("condition %+v", c)
		})
	}
	kubectl(t, "", "-n", ns, "patch", "batchrun", "nightly", "--type=merge", "-p", `{"spec":{"parallelism":-1}}`)
	interpreted(metav1.ConditionFalse, "InterpretReplicaFailed")
	eventually(t, 30*time.Second, "an InterpretReplicaFailed Event", func(ctx context.Context) (bool, string) {
		out, err := kubectlErr("", "-n", ns, "get", "events", "--field-selector", "reason=InterpretReplicaFailed", "-o", "jsonpath={.items[*].message}")
		return err == nil && strings.Contains(out, "spec.parallelism is negative: -1"), out
	})
	if got := memberInt(ctx, t, "member2", batchruns, ns, "nightly", "spec", "parallelism"); got != 2 {
		t.Errorf("member2's BatchRun has parallelism %d while the script fails, want the 2 it had", got)
	}
	kubectl(t, "", "-n", ns, "patch", "batchrun", "nightly", "--type=merge", "-p", `{"spec":{"parallelism":3}}`)
	interpreted(metav1.ConditionTrue, "ScriptsSucceeded")
	eventually(t, 60*time.Second, "member1's BatchRun with parallelism 3", func(ctx context.Context) (bool, string) {
		got := memberInt(ctx, t, "member1", batchruns, ns, "nightly", "spec", "parallelism")
		return got == 3, fmt.Sprint(got)
	})
}

// compareInterpretWithControllers runs kubectl mco interpret, offline, on
// the WebApp customization with the objects the controllers saw, and
// compares its answers with what the controllers wrote.
func compareInterpretWithControllers(t *testing.T, ns string) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	write := func(name string, v any) string {
		t.Helper()
		b, err := yaml.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tmpl, err := mcoObject(ctx, t, webapps, ns, "web")
	if err != nil {
		t.Fatal(err)
	}
	observed, err := memberDynamic(t, "member1").Resource(webapps).Namespace(ns).Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, mco := mcoClients(t)
	b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, names.Binding("WebApp", "web"), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var statusItems []string
	var member1 *workv1alpha2.AggregatedStatusItem
	for i, it := range b.Status.AggregatedStatus {
		y, err := yaml.Marshal(it)
		if err != nil {
			t.Fatal(err)
		}
		statusItems = append(statusItems, string(y))
		if it.ClusterName == "member1" {
			member1 = &b.Status.AggregatedStatus[i]
		}
	}
	if member1 == nil {
		t.Fatalf("binding has no status of member1: %+v", b.Status.AggregatedStatus)
	}
	desiredFile, observedFile := write("desired.yaml", tmpl.Object), write("observed.yaml", observed.Object)
	statusFile := filepath.Join(dir, "status.yaml")
	if err := os.WriteFile(statusFile, []byte(strings.Join(statusItems, "---\n")), 0o600); err != nil {
		t.Fatal(err)
	}

	// run returns the answers of one operation, by name, as JSON values.
	run := func(args ...string) map[string]any {
		t.Helper()
		r := kubectlMCO(t, append([]string{"interpret", "-f", examples + "webapp-customization.yaml"}, args...)...)
		r.mustSucceed(t, "kubectl mco interpret "+strings.Join(args, " "))
		out := map[string]any{}
		for _, doc := range strings.Split(r.stdout, "---\n")[1:] {
			header, body, _ := strings.Cut(doc, "\n")
			name := strings.TrimSuffix(header[strings.Index(header, "] ")+2:], ":")
			var v any
			if err := yaml.Unmarshal([]byte(body), &v); err != nil {
				t.Fatalf("answer %s: %v\n%s", name, err, r.stdout)
			}
			out[name] = v
		}
		return out
	}
	asJSON := func(v any) any {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var out any
		_ = json.Unmarshal(b, &out)
		return out
	}
	check := func(what string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(asJSON(got), asJSON(want)) {
			t.Errorf("%s: kubectl mco interpret says %v, the controllers %v", what, asJSON(got), asJSON(want))
		}
	}

	got := run("--operation", "InterpretReplica", "--desired-file", desiredFile)
	check("replicas", got["replica"], b.Spec.Replicas)
	check("requirements", got["requires"], b.Spec.ReplicaRequirements)

	got = run("--operation", "ReviseReplica", "--desired-file", desiredFile, "--desired-replica", "2")
	replicas, _, _ := unstructured.NestedFieldCopy(got["revised"].(map[string]any), "spec", "replicas")
	check("member1's replicas", replicas, observed.Object["spec"].(map[string]any)["replicas"])

	got = run("--operation", "Retain", "--desired-file", desiredFile, "--observed-file", observedFile)
	endpoint, _, _ := unstructured.NestedFieldCopy(got["retained"].(map[string]any), "spec", "endpoint")
	check("retained endpoint", endpoint, "https://web.member1.example")

	got = run("--operation", "InterpretStatus", "--observed-file", observedFile)
	check("member1's status", got["status"], member1.Status)

	got = run("--operation", "InterpretHealth", "--observed-file", observedFile)
	check("member1's health", got["healthy"], member1.Health == workv1alpha2.ResourceHealthy)

	got = run("--operation", "AggregateStatus", "--desired-file", desiredFile, "--status-file", statusFile)
	check("aggregated status", got["aggregatedStatus"].(map[string]any)["status"], tmpl.Object["status"])

	got = run("--operation", "InterpretDependency", "--desired-file", desiredFile)
	check("dependencies", got["dependencies"], []any{map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "namespace": ns, "name": "web-config"}})
}

// TestResourceInterpreterHealthFailover: a WebApp whose operator in
// member2 reports too few ready replicas is unhealthy by its
// customization's InterpretHealth, and application failover moves its
// replicas to member1.
func TestResourceInterpreterHealthFailover(t *testing.T) {
	framework.Parallel(t)
	installExampleKinds(t)
	ns := namespace(t, "e2e-interpreter-failover")
	applyUntilMapped(t, webAppYAML(ns, "api", 2, `  failover:
    application:
      decisionConditions: {tolerationSeconds: 5}
      purgeMode: Never
`))
	eventually(t, 90*time.Second, "WebApp api with 1 replica in member1 and member2", func(ctx context.Context) (bool, string) {
		r1 := memberInt(ctx, t, "member1", webapps, ns, "api", "spec", "replicas")
		r2 := memberInt(ctx, t, "member2", webapps, ns, "api", "spec", "replicas")
		return r1 == 1 && r2 == 1, fmt.Sprintf("member1 %d, member2 %d", r1, r2)
	})
	operate(t, "member2", webapps, ns, "api", true, func(o *unstructured.Unstructured) {
		_ = unstructured.SetNestedMap(o.Object, map[string]any{"replicas": int64(1), "readyReplicas": int64(0)}, "status")
	})
	_, mco := mcoClients(t)
	rb := names.Binding("WebApp", "api")
	start := time.Now()
	eventually(t, 180*time.Second, "moved off member2 for ApplicationFailure, 2 replicas in member1", func(ctx context.Context) (bool, string) {
		b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, rb, metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		evicted := false
		for _, task := range b.Spec.GracefulEvictionTasks {
			evicted = evicted || (task.FromCluster == "member2" && task.Reason == "ApplicationFailure")
		}
		onlyMember1 := len(b.Spec.Clusters) == 1 && b.Spec.Clusters[0].Name == "member1"
		r1 := memberInt(ctx, t, "member1", webapps, ns, "api", "spec", "replicas")
		return evicted && onlyMember1 && r1 == 2, fmt.Sprintf("clusters %v tasks %v member1 replicas %d", b.Spec.Clusters, b.Spec.GracefulEvictionTasks, r1)
	})
	t.Logf("application failover by the customization's health %s after member2 reported", time.Since(start).Round(time.Second))
}
