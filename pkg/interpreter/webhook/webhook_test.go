package webhook

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
)

var workloadKind = schema.GroupVersionKind{Group: "example.io", Version: "v1", Kind: "Workload"}

// server answers every call with what answer makes of the request; a nil
// answer holds the call until the caller gives up.
func server(t *testing.T, answer func(*configv1alpha1.ResourceInterpreterRequest) *configv1alpha1.ResourceInterpreterResponse) (*httptest.Server, []byte) {
	t.Helper()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in configv1alpha1.ResourceInterpreterContext
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Request == nil || in.Kind != "ResourceInterpreterContext" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		resp := answer(in.Request)
		if resp == nil {
			// No answer: hold the call until the caller gives up.
			<-r.Context().Done()
			return
		}
		_ = json.NewEncoder(w).Encode(&configv1alpha1.ResourceInterpreterContext{TypeMeta: in.TypeMeta, Response: resp})
	}))
	t.Cleanup(srv.Close)
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	return srv, ca
}

func config(name string, hooks ...configv1alpha1.ResourceInterpreterWebhook) *configv1alpha1.ResourceInterpreterWebhookConfiguration {
	return &configv1alpha1.ResourceInterpreterWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: name}, Webhooks: hooks}
}

func hook(name, url string, ca []byte, ops ...configv1alpha1.InterpreterOperation) configv1alpha1.ResourceInterpreterWebhook {
	return configv1alpha1.ResourceInterpreterWebhook{
		Name:         name,
		ClientConfig: admissionregistrationv1.WebhookClientConfig{URL: ptr.To(url), CABundle: ca},
		Rules: []configv1alpha1.RuleWithOperations{{Operations: ops,
			Rule: configv1alpha1.Rule{APIGroups: []string{"example.io"}, APIVersions: []string{"*"}, Kinds: []string{"Workload"}}}},
		InterpreterContextVersions: []string{"v1alpha1"},
	}
}

func TestSetPicksTheFirstMatchingHookByName(t *testing.T) {
	t.Parallel()
	replica := configv1alpha1.InterpreterOperationInterpretReplica
	health := configv1alpha1.InterpreterOperationInterpretHealth
	set, errs := NewSet([]*configv1alpha1.ResourceInterpreterWebhookConfiguration{
		config("b", hook("all.example.com", "https://b.example", nil, configv1alpha1.InterpreterOperationAll)),
		config("a", hook("z.example.com", "https://a.example", nil, replica), hook("y.example.com", "https://a.example", nil, health)),
	}, map[string]*http.Client{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	cases := []struct {
		kind schema.GroupVersionKind
		op   configv1alpha1.InterpreterOperation
		want string
	}{
		{workloadKind, replica, "a/z.example.com"},
		{workloadKind, health, "a/y.example.com"},
		{workloadKind, configv1alpha1.InterpreterOperationRetain, "b/all.example.com"},
		// "*" does not ask InterpretComponent: it must be named.
		{workloadKind, configv1alpha1.InterpreterOperationInterpretComponent, ""},
		{schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, replica, ""},
	}
	for _, tc := range cases {
		got := ""
		if h := set.Hook(tc.kind, tc.op); h != nil {
			got = h.Name
		}
		if got != tc.want {
			t.Errorf("Hook(%s, %s) = %q, want %q", tc.kind.Kind, tc.op, got, tc.want)
		}
	}
	if !set.Kinds(workloadKind) || set.Kinds(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}) {
		t.Error("Kinds does not follow the rules")
	}
	var none *Set
	if none.Hook(workloadKind, replica) != nil || none.Fingerprint() != "" {
		t.Error("a nil set answers")
	}
}

func TestCall(t *testing.T) {
	t.Parallel()
	ok := func(r *configv1alpha1.ResourceInterpreterRequest) *configv1alpha1.ResourceInterpreterResponse {
		return &configv1alpha1.ResourceInterpreterResponse{UID: r.UID, Successful: true, Replicas: ptr.To[int32](3), Healthy: ptr.To(true)}
	}
	cases := []struct {
		name    string
		answer  func(*configv1alpha1.ResourceInterpreterRequest) *configv1alpha1.ResourceInterpreterResponse
		op      configv1alpha1.InterpreterOperation
		noCA    bool
		service bool
		slow    bool
		wantErr string
	}{
		{name: "A checked answer is returned.", answer: ok, op: configv1alpha1.InterpreterOperationInterpretReplica},
		{name: "The uid must come back.", op: configv1alpha1.InterpreterOperationInterpretHealth,
			answer: func(r *configv1alpha1.ResourceInterpreterRequest) *configv1alpha1.ResourceInterpreterResponse {
				return &configv1alpha1.ResourceInterpreterResponse{UID: "other", Successful: true, Healthy: ptr.To(true)}
			}, wantErr: `the response's uid "other" is not the request's`},
		{name: "An unsuccessful answer is an error with its message.", op: configv1alpha1.InterpreterOperationInterpretHealth,
			answer: func(r *configv1alpha1.ResourceInterpreterRequest) *configv1alpha1.ResourceInterpreterResponse {
				return &configv1alpha1.ResourceInterpreterResponse{UID: r.UID, Status: &configv1alpha1.RequestStatus{Message: "no idea", Code: 500}}
			}, wantErr: "the webhook did not succeed (code 500): no idea"},
		{name: "InterpretReplica must answer replicas.", op: configv1alpha1.InterpreterOperationInterpretReplica,
			answer: func(r *configv1alpha1.ResourceInterpreterRequest) *configv1alpha1.ResourceInterpreterResponse {
				return &configv1alpha1.ResourceInterpreterResponse{UID: r.UID, Successful: true}
			}, wantErr: "the response has no replicas"},
		{name: "A patch must be a JSON patch.", op: configv1alpha1.InterpreterOperationRetain,
			answer: func(r *configv1alpha1.ResourceInterpreterRequest) *configv1alpha1.ResourceInterpreterResponse {
				return &configv1alpha1.ResourceInterpreterResponse{UID: r.UID, Successful: true, Patch: []byte("[]")}
			}, wantErr: `patchType must be "JSONPatch"`},
		{name: "Without the CA the server is not trusted.", answer: ok, op: configv1alpha1.InterpreterOperationInterpretReplica, noCA: true,
			wantErr: "certificate"},
		{name: "timeoutSeconds bounds a call.", answer: ok, op: configv1alpha1.InterpreterOperationInterpretReplica, slow: true,
			wantErr: "deadline exceeded"},
		{name: "The service form is answered with an error.", answer: ok, op: configv1alpha1.InterpreterOperationInterpretReplica, service: true,
			wantErr: "mco cannot reach Service ns/svc"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			answer := tc.answer
			if tc.slow {
				answer = func(*configv1alpha1.ResourceInterpreterRequest) *configv1alpha1.ResourceInterpreterResponse {
					return nil
				}
			}
			srv, ca := server(t, answer)
			if tc.noCA {
				ca = nil
			}
			w := hook("h.example.com", srv.URL, ca, configv1alpha1.InterpreterOperationAll)
			w.TimeoutSeconds = ptr.To[int32](1)
			if tc.service {
				w.ClientConfig = admissionregistrationv1.WebhookClientConfig{Service: &admissionregistrationv1.ServiceReference{Namespace: "ns", Name: "svc"}}
			}
			set, errs := NewSet([]*configv1alpha1.ResourceInterpreterWebhookConfiguration{config("c", w)}, map[string]*http.Client{})
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			resp, err := set.Hook(workloadKind, tc.op).Call(ctx, &configv1alpha1.ResourceInterpreterRequest{Operation: tc.op, Name: "w"})
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("Call: %v", err)
			case tc.wantErr == "" && *resp.Replicas != 3:
				t.Errorf("replicas %d, want 3", *resp.Replicas)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestApplyPatch(t *testing.T) {
	t.Parallel()
	resp := &configv1alpha1.ResourceInterpreterResponse{Patch: []byte(`[{"op":"replace","path":"/spec/replicas","value":2}]`)}
	out, err := ApplyPatch([]byte(`{"spec":{"replicas":5}}`), resp)
	if err != nil || string(out) != `{"spec":{"replicas":2}}` {
		t.Errorf("ApplyPatch = %s, %v", out, err)
	}
	if _, err := ApplyPatch([]byte(`{}`), &configv1alpha1.ResourceInterpreterResponse{Patch: []byte(`[{"op":"test","path":"/a","value":1}]`)}); err == nil {
		t.Error("a patch that does not apply gives no error")
	}
}
