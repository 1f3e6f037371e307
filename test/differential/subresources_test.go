package differential

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// subresourceCase is one request to a custom resource's status or scale
// subresource, or a create under a field validation directive, sent to
// both servers after the same base is stored on each.
type subresourceCase struct {
	name string
	// base is created for real first (nil: none).
	base map[string]any
	// call sends the request through one server, given what it stored.
	call func(ctx context.Context, s *server, stored map[string]any) (Outcome, error)
	// refused is what kube-apiserver is expected to answer: a refusal or
	// not (so that each case tests what it names).
	refused bool
}

func widgetObject(name string, spec map[string]any) map[string]any {
	return map[string]any{"apiVersion": customGroup + "/v1", "kind": "Widget",
		"metadata": map[string]any{"name": name, "namespace": testNamespace}, "spec": spec}
}

// withStatus is stored with status and, to show the status subresource
// ignores them, a changed spec and label.
func withStatus(stored map[string]any, status map[string]any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(stored)}
	u.Object["status"] = status
	_ = unstructured.SetNestedField(u.Object, int64(7), "spec", "replicas")
	u.SetLabels(map[string]string{"changed": "by-status-write"})
	return u
}

// scaleTo reads a custom resource's scale and sends it back, dry run, with
// replicas.
func scaleTo(k Kind, name string, replicas int64) func(context.Context, *server, map[string]any) (Outcome, error) {
	return func(ctx context.Context, s *server, _ map[string]any) (Outcome, error) {
		return s.do(ctx, func(ctx context.Context) (*unstructured.Unstructured, error) {
			sc, err := s.resource(k).Get(ctx, name, metav1.GetOptions{}, "scale")
			if err != nil {
				return nil, err
			}
			_ = unstructured.SetNestedField(sc.Object, replicas, "spec", "replicas")
			return s.resource(k).Update(ctx, sc, metav1.UpdateOptions{DryRun: dryRunAll}, "scale")
		})
	}
}

// TestCustomResourceSubresources compares what the two servers answer to a
// custom resource's status and scale subresources and to creates under the
// Strict and Ignore field validation directives. The differential corpus
// covers the main resource; these reach the rest of a custom resource's
// API.
func TestCustomResourceSubresources(t *testing.T) {
	kube, mco := startServers(t)
	widget, _ := KindByDir("widget")
	dry := metav1.UpdateOptions{DryRun: dryRunAll}
	cases := []subresourceCase{
		{name: "status-write", base: widgetObject("sub-status", map[string]any{"size": "medium", "replicas": int64(2)}),
			call: func(ctx context.Context, s *server, stored map[string]any) (Outcome, error) {
				return s.do(ctx, func(ctx context.Context) (*unstructured.Unstructured, error) {
					return s.resource(widget).UpdateStatus(ctx, withStatus(stored, map[string]any{"replicas": int64(2), "selector": "app=w"}), dry)
				})
			}},
		{name: "status-write-schema-violation", refused: true, base: widgetObject("sub-status-bad", map[string]any{"size": "medium"}),
			call: func(ctx context.Context, s *server, stored map[string]any) (Outcome, error) {
				return s.do(ctx, func(ctx context.Context) (*unstructured.Unstructured, error) {
					return s.resource(widget).UpdateStatus(ctx, withStatus(stored, map[string]any{"replicas": "two"}), dry)
				})
			}},
		{name: "scale-read", base: widgetObject("sub-scale", map[string]any{"size": "large", "replicas": int64(3)}),
			call: func(ctx context.Context, s *server, _ map[string]any) (Outcome, error) {
				return s.do(ctx, func(ctx context.Context) (*unstructured.Unstructured, error) {
					return s.resource(widget).Get(ctx, "sub-scale", metav1.GetOptions{}, "scale")
				})
			}},
		{name: "scale-write", base: widgetObject("sub-scale-write", map[string]any{"size": "large", "replicas": int64(3)}),
			call: scaleTo(widget, "sub-scale-write", 5)},
		{name: "scale-write-past-maximum", refused: true, base: widgetObject("sub-scale-max", map[string]any{"size": "large", "replicas": int64(3)}),
			call: scaleTo(widget, "sub-scale-max", 500)},
	}
	for _, directive := range []string{metav1.FieldValidationStrict, metav1.FieldValidationIgnore, metav1.FieldValidationWarn} {
		cases = append(cases, subresourceCase{name: "create-unknown-field-" + strings.ToLower(directive), refused: directive == metav1.FieldValidationStrict,
			call: func(ctx context.Context, s *server, _ map[string]any) (Outcome, error) {
				obj := widgetObject("sub-unknown", map[string]any{"size": "small", "colour": "red", "replicas": int64(1)})
				obj["extra"] = true
				return s.do(ctx, func(ctx context.Context) (*unstructured.Unstructured, error) {
					return s.resource(widget).Create(ctx, &unstructured.Unstructured{Object: obj},
						metav1.CreateOptions{DryRun: dryRunAll, FieldValidation: directive})
				})
			}})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var outcomes [2]Outcome
			for i, s := range []*server{kube, mco} {
				var stored map[string]any
				if c.base != nil {
					base, err := s.create(ctx, widget, c.base, false)
					if err != nil || !base.Accepted() {
						t.Fatalf("base on %s: %v %s %s", s.name, err, base, base.Message)
					}
					stored = base.Object
				}
				o, err := c.call(ctx, s, stored)
				if err != nil {
					t.Fatalf("%s: %v", s.name, err)
				}
				outcomes[i] = o
			}
			if outcomes[0].Accepted() == c.refused {
				t.Errorf("kube-apiserver answered %s %s; the case expects refused=%v", outcomes[0], outcomes[0].Message, c.refused)
			}
			kind := "Widget"
			if strings.HasPrefix(c.name, "scale") {
				kind = "Scale"
			}
			for _, d := range compareOutcomes(Ignored(), kind, c.base, true, outcomes[0], outcomes[1]) {
				t.Errorf("%s\n  kube: %s %s\n  mco:  %s %s", d.Detail, outcomes[0], outcomes[0].Message, outcomes[1], outcomes[1].Message)
			}
		})
	}
}
