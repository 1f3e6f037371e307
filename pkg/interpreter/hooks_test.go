package interpreter

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/interpreter/lua"
	"github.com/mco-org/mco/pkg/interpreter/webhook"
)

// widgetHook answers for example.com/v1 Widgets as a user's webhook
// would: replicas from spec.size, 1 CPU each; healthy when status.ok;
// revise and retain by JSON patch; status aggregated as a member count.
func widgetHook(r *configv1alpha1.ResourceInterpreterRequest) *configv1alpha1.ResourceInterpreterResponse {
	resp := &configv1alpha1.ResourceInterpreterResponse{UID: r.UID, Successful: true}
	if r.Kind.Group != "example.com" || r.Kind.Version != "v1" || r.Kind.Kind != "Widget" || r.Namespace != "ns" || r.Name != "w" {
		resp.Successful, resp.Status = false, &configv1alpha1.RequestStatus{Message: "not mine: " + r.Kind.String() + " " + r.Namespace + "/" + r.Name, Code: 400}
		return resp
	}
	var obj map[string]any
	_ = json.Unmarshal(r.Object.Raw, &obj)
	spec, _ := obj["spec"].(map[string]any)
	status, _ := obj["status"].(map[string]any)
	jsonPatch := configv1alpha1.PatchTypeJSONPatch
	switch r.Operation {
	case configv1alpha1.InterpreterOperationInterpretReplica:
		size, _ := spec["size"].(float64)
		resp.Replicas = ptr.To(int32(size))
		resp.ReplicaRequirements = &workv1alpha2.ReplicaRequirements{ResourceRequest: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}}
	case configv1alpha1.InterpreterOperationInterpretHealth:
		ok, _ := status["ok"].(bool)
		resp.Healthy = &ok
	case configv1alpha1.InterpreterOperationReviseReplica:
		resp.Patch, resp.PatchType = []byte(`[{"op":"replace","path":"/spec/size","value":`+strings.TrimSpace(string(mustJSON(*r.DesiredReplicas)))+`}]`), &jsonPatch
	case configv1alpha1.InterpreterOperationRetain:
		var observed map[string]any
		_ = json.Unmarshal(r.ObservedObject.Raw, &observed)
		owner := observed["spec"].(map[string]any)["owner"]
		resp.Patch, resp.PatchType = []byte(`[{"op":"add","path":"/spec/owner","value":`+string(mustJSON(owner))+`}]`), &jsonPatch
	case configv1alpha1.InterpreterOperationAggregateStatus:
		resp.Patch, resp.PatchType = []byte(`[{"op":"add","path":"/status","value":{"members":`+string(mustJSON(len(r.AggregatedStatus)))+`}}]`), &jsonPatch
	case configv1alpha1.InterpreterOperationInterpretStatus:
		resp.RawStatus = &runtime.RawExtension{Raw: []byte(`{"ok":true}`)}
	case configv1alpha1.InterpreterOperationInterpretDependency:
		resp.Dependencies = []configv1alpha1.DependentObjectReference{{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "cfg"}}
	case configv1alpha1.InterpreterOperationInterpretComponent:
		size, _ := spec["size"].(float64)
		resp.Components = []workv1alpha2.Component{{Name: "main", Replicas: int32(size)}}
	}
	return resp
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func hookedInterpreter(t *testing.T, ops ...configv1alpha1.InterpreterOperation) *Interpreter {
	t.Helper()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in configv1alpha1.ResourceInterpreterContext
		_ = json.NewDecoder(r.Body).Decode(&in)
		_ = json.NewEncoder(w).Encode(&configv1alpha1.ResourceInterpreterContext{TypeMeta: in.TypeMeta, Response: widgetHook(in.Request)})
	}))
	t.Cleanup(srv.Close)
	set, errs := webhook.NewSet([]*configv1alpha1.ResourceInterpreterWebhookConfiguration{{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets"},
		Webhooks: []configv1alpha1.ResourceInterpreterWebhook{{
			Name: "widgets.example.com",
			ClientConfig: admissionregistrationv1.WebhookClientConfig{URL: ptr.To(srv.URL),
				CABundle: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})},
			Rules: []configv1alpha1.RuleWithOperations{{Operations: ops,
				Rule: configv1alpha1.Rule{APIGroups: []string{"example.com"}, APIVersions: []string{"v1"}, Kinds: []string{"Widget"}}}},
			InterpreterContextVersions: []string{"v1alpha1"},
		}},
	}}, map[string]*http.Client{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	i := New(lua.NewVM(), nil)
	i.SetWebhooks(set)
	return i
}

func widget(size int64, status map[string]any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w", "namespace": "ns"}, "spec": map[string]any{"size": size}}}
	if status != nil {
		u.Object["status"] = status
	}
	return u
}

// TestWebhooksAnswerEveryOperation: each operation a webhook answers is
// asked of it, and its answer used as a script's would be.
func TestWebhooksAnswerEveryOperation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	i := hookedInterpreter(t, configv1alpha1.InterpreterOperationAll)

	w, err := i.Interpret(ctx, widget(4, nil))
	if err != nil || !w.Replicated || w.Replicas != 4 || w.Requirements.ResourceRequest.Cpu().String() != "1" {
		t.Errorf("Interpret = %+v, %v", w, err)
	}
	if h, err := i.Health(ctx, widget(1, map[string]any{"ok": false})); err != nil || h != workv1alpha2.ResourceUnhealthy {
		t.Errorf("Health = %s, %v", h, err)
	}
	revised, err := i.ReviseReplicas(ctx, widget(4, nil), 3)
	if size, _, _ := unstructured.NestedInt64(revised.Object, "spec", "size"); err != nil || size != 3 {
		t.Errorf("ReviseReplicas: size %d, %v", size, err)
	}
	observed := widget(4, nil)
	observed.Object["spec"].(map[string]any)["owner"] = "member-controller"
	if !i.Retains(widget(4, nil)) {
		t.Error("a kind a webhook retains for is not read first")
	}
	retained, err := i.Retain(ctx, widget(4, nil), observed)
	if owner, _, _ := unstructured.NestedString(retained.Object, "spec", "owner"); err != nil || owner != "member-controller" {
		t.Errorf("Retain: owner %q, %v", owner, err)
	}
	status, ok, err := i.AggregateStatus(ctx, widget(4, nil), []workv1alpha2.AggregatedStatusItem{{ClusterName: "a"}, {ClusterName: "b"}}, metav1.Now())
	if err != nil || !ok || status["members"] != int64(2) && status["members"] != float64(2) {
		t.Errorf("AggregateStatus = %v, %v, %v", status, ok, err)
	}
	if raw, err := i.ReflectStatus(ctx, widget(4, nil)); err != nil || string(raw.Raw) != `{"ok":true}` {
		t.Errorf("ReflectStatus = %v, %v", raw, err)
	}
	if deps, err := i.Dependencies(ctx, widget(4, nil)); err != nil || len(deps) != 1 || deps[0].Name != "cfg" {
		t.Errorf("Dependencies = %v, %v", deps, err)
	}
}

// TestWebhookOrder: a script answers before a webhook, a webhook before
// mco's own rules, and a webhook's failure is reported as a script's.
func TestWebhookOrder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	i := hookedInterpreter(t, configv1alpha1.InterpreterOperationInterpretHealth, configv1alpha1.InterpreterOperationInterpretComponent)
	set, errs := NewSet([]*configv1alpha1.ResourceInterpreterCustomization{customization("lua", "Widget", "function InterpretHealth(obj) return false end")})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	i.SetCustomizations(set)
	if h, _ := i.Health(ctx, widget(1, map[string]any{"ok": true})); h != workv1alpha2.ResourceUnhealthy {
		t.Errorf("Health = %s: the script did not answer first", h)
	}
	if !i.Customized(widget(1, nil).GroupVersionKind(), configv1alpha1.InterpreterOperationInterpretComponent) {
		t.Error("Customized does not see the webhook")
	}
	// A named InterpretComponent is asked, and takes InterpretReplica's place.
	if w, err := i.Interpret(ctx, widget(5, nil)); err != nil || w.Replicated || len(w.Components) != 1 || w.Components[0].Replicas != 5 {
		t.Errorf("Interpret = %+v, %v; want the webhook's one component of 5", w, err)
	}
	// The webhook refuses another object: an error naming it.
	broken := widget(1, nil)
	broken.SetName("broken")
	_, err := i.Interpret(ctx, broken)
	se := AsScriptError(err)
	if se == nil || se.Webhook != "widgets/widgets.example.com" || !strings.Contains(err.Error(), "not mine") {
		t.Errorf("Interpret error %v, want the webhook's refusal", err)
	}
}
