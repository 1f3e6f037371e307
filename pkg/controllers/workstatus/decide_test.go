package workstatus

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/interpreter"
)

var webID = workv1alpha1.ResourceIdentifier{Group: "apps", Version: "v1", Kind: "Deployment", Resource: "deployments", Namespace: "shop", Name: "web"}

func memberDeployment(observed, updated, available int64) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"namespace": "shop", "name": "web", "generation": int64(2),
			"annotations": map[string]any{workv1alpha1.ResourceTemplateGenerationAnnotation: "5"}},
		"spec":   map[string]any{"replicas": int64(2)},
		"status": map[string]any{"observedGeneration": observed, "replicas": int64(2), "updatedReplicas": updated, "availableReplicas": available},
	}}
}

func TestManifestStatus(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		obj        *unstructured.Unstructured
		manifest   *unstructured.Unstructured // nil: the one obj was applied from
		wantHealth workv1alpha1.ResourceHealth
		wantStatus map[string]any // nil: no status recorded
		wantErr    bool
	}{
		{name: "An object missing from the member has unknown health and no status.", wantHealth: workv1alpha1.ResourceUnknown},
		{
			name: "An object the member's cache shows from before the manifest was applied has unknown health.",
			obj:  memberDeployment(2, 2, 2),
			manifest: func() *unstructured.Unstructured {
				u := memberDeployment(2, 2, 2)
				u.SetAnnotations(map[string]string{workv1alpha1.ResourceTemplateGenerationAnnotation: "6"})
				return u
			}(),
			wantHealth: workv1alpha1.ResourceUnknown,
			wantStatus: map[string]any{"observedGeneration": 2.0, "replicas": 2.0, "updatedReplicas": 2.0,
				"availableReplicas": 2.0, "generation": 2.0, "resourceTemplateGeneration": 5.0},
		},
		{
			name:       "A rolled-out Deployment is healthy and records what mco collects of it.",
			obj:        memberDeployment(2, 2, 2),
			wantHealth: workv1alpha1.ResourceHealthy,
			wantStatus: map[string]any{"observedGeneration": float64(2), "generation": float64(2), "replicas": float64(2),
				"updatedReplicas": float64(2), "availableReplicas": float64(2), "resourceTemplateGeneration": float64(5)},
		},
		{
			name:       "A Deployment still rolling out is unhealthy.",
			obj:        memberDeployment(2, 1, 1),
			wantHealth: workv1alpha1.ResourceUnhealthy,
			wantStatus: map[string]any{"observedGeneration": float64(2), "generation": float64(2), "replicas": float64(2),
				"updatedReplicas": float64(1), "availableReplicas": float64(1), "resourceTemplateGeneration": float64(5)},
		},
		{
			name: "A ConfigMap without status is healthy and records no status.",
			obj: &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
				"metadata": map[string]any{"namespace": "shop", "name": "cfg"}}},
			wantHealth: workv1alpha1.ResourceHealthy,
		},
		{
			name: "A Deployment whose status cannot be read is an error with unknown health.",
			obj: func() *unstructured.Unstructured {
				u := memberDeployment(2, 2, 2)
				u.Object["status"] = map[string]any{"replicas": "two"}
				return u
			}(),
			wantHealth: workv1alpha1.ResourceUnknown,
			wantErr:    true,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			manifest := tc.manifest
			if manifest == nil {
				manifest = tc.obj
			}
			got, failed := ManifestStatus(context.Background(), interpreter.Default(), tc.obj, manifest, webID)
			if err := errors.Join(failed.Status, failed.Health); (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if got.Identifier != webID {
				t.Errorf("identifier = %+v, want %+v", got.Identifier, webID)
			}
			if got.Health != tc.wantHealth {
				t.Errorf("health = %s, want %s", got.Health, tc.wantHealth)
			}
			if tc.wantStatus == nil {
				if got.Status != nil {
					t.Errorf("status = %s, want none", got.Status.Raw)
				}
				return
			}
			if got.Status == nil {
				t.Fatal("status = nil, want a status")
			}
			var status map[string]any
			if err := json.Unmarshal(got.Status.Raw, &status); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantStatus, status); diff != "" {
				t.Errorf("status differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAvailableCondition(t *testing.T) {
	t.Parallel()
	status := func(kind, name string, h workv1alpha1.ResourceHealth) workv1alpha1.ManifestStatus {
		return workv1alpha1.ManifestStatus{Identifier: workv1alpha1.ResourceIdentifier{Kind: kind, Name: name}, Health: h}
	}
	available := metav1.Condition{Type: workv1alpha1.WorkAvailable, Status: metav1.ConditionTrue, Reason: "ResourcesAvailable",
		Message: "Every manifest is healthy in the member cluster.", ObservedGeneration: 4}
	notAvailable := func(msg string) metav1.Condition {
		return metav1.Condition{Type: workv1alpha1.WorkAvailable, Status: metav1.ConditionFalse, Reason: "ResourcesNotAvailable",
			Message: msg, ObservedGeneration: 4}
	}
	cases := []struct {
		name     string
		statuses []workv1alpha1.ManifestStatus
		want     metav1.Condition
	}{
		{name: "A Work without manifests is available.", want: available},
		{
			name:     "A Work whose every manifest is healthy is available.",
			statuses: []workv1alpha1.ManifestStatus{status("Deployment", "web", workv1alpha1.ResourceHealthy), status("Service", "web", workv1alpha1.ResourceHealthy)},
			want:     available,
		},
		{
			name: "Manifests that are unhealthy or unknown are named, in order.",
			statuses: []workv1alpha1.ManifestStatus{
				status("Deployment", "web", workv1alpha1.ResourceUnhealthy),
				status("Service", "web", workv1alpha1.ResourceHealthy),
				status("ConfigMap", "cfg", workv1alpha1.ResourceUnknown),
			},
			want: notAvailable("Deployment web is Unhealthy; ConfigMap cfg is Unknown"),
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, AvailableCondition(tc.statuses, 4)); diff != "" {
				t.Errorf("condition differs (-want +got):\n%s", diff)
			}
		})
	}
}
