package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/test/e2e/framework"
)

var hookedApps = schema.GroupVersionResource{Group: "hooks.e2e.example.com", Version: "v1", Resource: "hookedapps"}

// hookedAppHook is a user's interpreter webhook for HookedApps: spec.size
// replicas of 100m each, revised by JSON patch, healthy from 3 up; the
// other operations change nothing. It counts the calls of each operation.
type hookedAppHook struct {
	mu    sync.Mutex
	calls map[configv1alpha1.InterpreterOperation]int
}

func (g *hookedAppHook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var in configv1alpha1.ResourceInterpreterContext
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Request == nil {
		http.Error(w, "not a ResourceInterpreterContext", http.StatusBadRequest)
		return
	}
	req := in.Request
	g.mu.Lock()
	g.calls[req.Operation]++
	g.mu.Unlock()
	var obj struct {
		Spec struct {
			Size int32 `json:"size"`
		} `json:"spec"`
	}
	_ = json.Unmarshal(req.Object.Raw, &obj)
	resp := &configv1alpha1.ResourceInterpreterResponse{UID: req.UID, Successful: true}
	jsonPatch := configv1alpha1.PatchTypeJSONPatch
	switch req.Operation {
	case configv1alpha1.InterpreterOperationInterpretReplica:
		resp.Replicas = ptr.To(obj.Spec.Size)
		resp.ReplicaRequirements = &workv1alpha2.ReplicaRequirements{ResourceRequest: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")}}
	case configv1alpha1.InterpreterOperationReviseReplica:
		resp.Patch, resp.PatchType = []byte(fmt.Sprintf(`[{"op":"replace","path":"/spec/size","value":%d}]`, *req.DesiredReplicas)), &jsonPatch
	case configv1alpha1.InterpreterOperationInterpretHealth:
		resp.Healthy = ptr.To(obj.Spec.Size >= 3)
	}
	// The other operations "*" brings are answered with nothing to
	// change: no patch, no status of its own, no dependencies.
	_ = json.NewEncoder(w).Encode(&configv1alpha1.ResourceInterpreterContext{TypeMeta: in.TypeMeta, Response: resp})
}

func (g *hookedAppHook) called(op configv1alpha1.InterpreterOperation) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.calls[op]
}

// TestInterpreterWebhook: a custom kind taught to mco by a webhook the
// test serves (over TLS, trusted through caBundle): its replicas are read
// and divided, each member's share is written by the webhook's patch, and
// its health is the webhook's answer, in the binding.
func TestInterpreterWebhook(t *testing.T) {
	framework.Parallel(t)
	hook := &hookedAppHook{calls: map[configv1alpha1.InterpreterOperation]int{}}
	srv := httptest.NewTLSServer(hook)
	t.Cleanup(srv.Close)
	ca := base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}))

	installTestKind(t, "hooks.e2e.example.com", "HookedApp", "hookedapps", "{size: {type: integer}}", []string{"member1", "member2"})
	kubectl(t, `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterWebhookConfiguration
metadata: {name: hookedapps}
webhooks:
- name: hookedapps.hooks.e2e.example.com
  clientConfig: {url: "`+srv.URL+`/interpret", caBundle: `+ca+`}
  rules: [{operations: ["*"], apiGroups: [hooks.e2e.example.com], apiVersions: ["*"], kinds: [HookedApp]}]
  timeoutSeconds: 5
  interpreterContextVersions: [v1alpha1]
`, "apply", "-f", "-")
	t.Cleanup(func() {
		_, _ = kubectlErr("", "delete", "resourceinterpreterwebhookconfiguration/hookedapps", "--ignore-not-found")
	})

	ns := namespace(t, "e2e-interpreter-webhook")
	kubectl(t, `apiVersion: hooks.e2e.example.com/v1
kind: HookedApp
metadata: {name: g, namespace: `+ns+`}
spec: {size: 4}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: g, namespace: `+ns+`}
spec:
  resourceSelectors: [{apiVersion: hooks.e2e.example.com/v1, kind: HookedApp, name: g}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
`+splitEvenly, "apply", "-f", "-")

	sizes := func(ctx context.Context) (int64, int64) {
		return memberInt(ctx, t, "member1", hookedApps, ns, "g", "spec", "size"), memberInt(ctx, t, "member2", hookedApps, ns, "g", "spec", "size")
	}
	health := func(ctx context.Context) (map[string]workv1alpha2.ResourceHealth, int32) {
		b, err := framework.MCO(t).WorkV1alpha2().ResourceBindings(ns).Get(ctx, "g-hookedapp", metav1.GetOptions{})
		if err != nil {
			return nil, -1
		}
		out := map[string]workv1alpha2.ResourceHealth{}
		for _, s := range b.Status.AggregatedStatus {
			out[s.ClusterName] = s.Health
		}
		return out, b.Spec.Replicas
	}
	eventually(t, 2*time.Minute, "4 HookedApp replicas read by the webhook, 2 a member, unhealthy below 3", func(ctx context.Context) (bool, string) {
		m1, m2 := sizes(ctx)
		h, replicas := health(ctx)
		ok := replicas == 4 && m1 == 2 && m2 == 2 && h["member1"] == workv1alpha2.ResourceUnhealthy && h["member2"] == workv1alpha2.ResourceUnhealthy
		return ok, fmt.Sprintf("binding replicas %d, members' sizes %d and %d, health %v", replicas, m1, m2, h)
	})
	kubectl(t, "", "-n", ns, "patch", "hookedapps.hooks.e2e.example.com", "g", "--type=merge", "-p", `{"spec":{"size":6}}`)
	eventually(t, 2*time.Minute, "6 replicas, 3 a member, healthy", func(ctx context.Context) (bool, string) {
		m1, m2 := sizes(ctx)
		h, replicas := health(ctx)
		ok := replicas == 6 && m1 == 3 && m2 == 3 && h["member1"] == workv1alpha2.ResourceHealthy && h["member2"] == workv1alpha2.ResourceHealthy
		return ok, fmt.Sprintf("binding replicas %d, members' sizes %d and %d, health %v", replicas, m1, m2, h)
	})
	for _, op := range []configv1alpha1.InterpreterOperation{configv1alpha1.InterpreterOperationInterpretReplica,
		configv1alpha1.InterpreterOperationReviseReplica, configv1alpha1.InterpreterOperationInterpretHealth} {
		if hook.called(op) == 0 {
			t.Errorf("the webhook was never asked %s", op)
		}
	}
}
