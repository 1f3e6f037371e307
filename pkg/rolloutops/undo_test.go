package rolloutops

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	mcofake "github.com/mco-org/mco/pkg/generated/clientset/versioned/fake"
)

var configMaps = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}

func staged() *rolloutv1alpha1.Rollout {
	return &rolloutv1alpha1.Rollout{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "settings-configmap"},
		Spec:       rolloutv1alpha1.RolloutSpec{Resource: rolloutv1alpha1.ResourceReference{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "settings"}},
		Status:     rolloutv1alpha1.RolloutStatus{CurrentRevision: 3},
	}
}

func TestUndo(t *testing.T) {
	tmpl := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"namespace": "shop", "name": "settings"},
		"data":     map[string]any{"level": "debug"},
	}}
	content := map[string]any{"data": map[string]any{"level": "info"}}
	tests := []struct {
		name      string
		templates []runtime.Object
		to        int64
		wantErr   string
		wantMark  bool
		wantLevel string
	}{
		{name: "the template gets the revision's content and the Rollout the mark", templates: []runtime.Object{tmpl}, to: 2,
			wantMark: true, wantLevel: "info"},
		{name: "a template that is gone leaves no mark behind", to: 2, wantErr: "is gone"},
		{name: "the current revision is refused before any write", templates: []runtime.Object{tmpl}, to: 3,
			wantErr: "current one already", wantLevel: "debug"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			ro := staged()
			mco := mcofake.NewSimpleClientset(ro)
			dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
				map[schema.GroupVersionResource]string{configMaps: "ConfigMapList"}, tt.templates...)
			err := Undo(ctx, mco, dyn.Resource(configMaps).Namespace("shop"), ro, tt.to, content, "test")
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("err %v, want %q", err, tt.wantErr)
			}
			live, err := mco.RolloutV1alpha1().Rollouts("shop").Get(ctx, ro.Name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want := &rolloutv1alpha1.RollbackRequest{ToRevision: tt.to, FromRevision: 3, Reason: "test"}
			if got := live.Spec.Rollback; tt.wantMark && (got == nil || *got != *want) || !tt.wantMark && got != nil {
				t.Errorf("rollback mark %+v, want one: %v", got, tt.wantMark)
			}
			if tt.wantLevel == "" {
				return
			}
			got, err := dyn.Resource(configMaps).Namespace("shop").Get(ctx, "settings", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if level, _, _ := unstructured.NestedString(got.Object, "data", "level"); level != tt.wantLevel {
				t.Errorf("template level %q, want %q", level, tt.wantLevel)
			}
		})
	}
}
