package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/uuid"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
)

// maxResponse bounds what is read of a webhook's answer.
const maxResponse = 8 << 20

// Error is a webhook call that failed: unreachable, refused or answered
// out of form. Karmada has no failure policy: every failure is an error
// of the operation.
type Error struct {
	Hook      string
	Operation configv1alpha1.InterpreterOperation
	Err       error
}

func (e *Error) Error() string {
	return fmt.Sprintf("interpreter webhook %s (%s): %v", e.Hook, e.Operation, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Call posts req to the webhook and returns its checked response: the
// request's UID, successful, and for operations that answer by patch a
// JSON patch.
func (h *Hook) Call(ctx context.Context, req *configv1alpha1.ResourceInterpreterRequest) (*configv1alpha1.ResourceInterpreterResponse, error) {
	resp, err := h.call(ctx, req)
	if err != nil {
		return nil, &Error{Hook: h.Name, Operation: req.Operation, Err: err}
	}
	return resp, nil
}

func (h *Hook) call(ctx context.Context, req *configv1alpha1.ResourceInterpreterRequest) (*configv1alpha1.ResourceInterpreterResponse, error) {
	if h.service != nil {
		svc := h.service.ClientConfig.Service
		return nil, fmt.Errorf("mco cannot reach Service %s/%s: Services on mco are templates for the member clusters; "+
			"give the webhook a clientConfig.url that mco can reach", svc.Namespace, svc.Name)
	}
	if req.UID == "" {
		req.UID = uuid.NewUUID()
	}
	body, err := json.Marshal(&configv1alpha1.ResourceInterpreterContext{
		TypeMeta: metav1.TypeMeta{APIVersion: configv1alpha1.SchemeGroupVersion.String(), Kind: "ResourceInterpreterContext"},
		Request:  req,
	})
	if err != nil {
		return nil, fmt.Errorf("encode the request: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	httpReq, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("build the request: %w", err)
	}
	httpReq.Header.Set("Content-Type", "application/json")
	httpReq.Header.Set("Accept", "application/json")
	httpResp, err := h.client.Do(httpReq)
	if err != nil {
		return nil, fmt.Errorf("call %s: %w", h.url, err)
	}
	defer httpResp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(httpResp.Body, maxResponse))
	if err != nil {
		return nil, fmt.Errorf("read the answer of %s: %w", h.url, err)
	}
	if httpResp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("%s answered %s: %s", h.url, httpResp.Status, truncate(raw))
	}
	var out configv1alpha1.ResourceInterpreterContext
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("the answer is not a ResourceInterpreterContext: %w", err)
	}
	return out.Response, check(req, out.Response)
}

// check verifies a response as Karmada does.
func check(req *configv1alpha1.ResourceInterpreterRequest, resp *configv1alpha1.ResourceInterpreterResponse) error {
	switch {
	case resp == nil:
		return fmt.Errorf("the answer has no response")
	case resp.UID != req.UID:
		return fmt.Errorf("the response's uid %q is not the request's %q", resp.UID, req.UID)
	case !resp.Successful:
		if resp.Status == nil {
			return fmt.Errorf("the webhook did not succeed and said nothing")
		}
		return fmt.Errorf("the webhook did not succeed (code %d): %s", resp.Status.Code, resp.Status.Message)
	}
	switch req.Operation {
	case configv1alpha1.InterpreterOperationInterpretReplica:
		if resp.Replicas == nil {
			return fmt.Errorf("the response has no replicas")
		}
	case configv1alpha1.InterpreterOperationInterpretHealth:
		if resp.Healthy == nil {
			return fmt.Errorf("the response has no healthy")
		}
	case configv1alpha1.InterpreterOperationReviseReplica, configv1alpha1.InterpreterOperationRetain, configv1alpha1.InterpreterOperationAggregateStatus:
		if len(resp.Patch) > 0 && (resp.PatchType == nil || *resp.PatchType != configv1alpha1.PatchTypeJSONPatch) {
			return fmt.Errorf("the response's patchType must be %q", configv1alpha1.PatchTypeJSONPatch)
		}
	}
	return nil
}

// ApplyPatch applies a response's JSON patch to the JSON of an object; no
// patch leaves it as it is.
func ApplyPatch(object []byte, resp *configv1alpha1.ResourceInterpreterResponse) ([]byte, error) {
	if len(resp.Patch) == 0 {
		return object, nil
	}
	patch, err := jsonpatch.DecodePatch(resp.Patch)
	if err != nil {
		return nil, fmt.Errorf("decode the webhook's JSON patch: %w", err)
	}
	out, err := patch.Apply(object)
	if err != nil {
		return nil, fmt.Errorf("apply the webhook's JSON patch: %w", err)
	}
	return out, nil
}

func truncate(b []byte) string {
	const most = 512
	if len(b) > most {
		return string(b[:most]) + "..."
	}
	return string(b)
}
