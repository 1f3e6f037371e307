package interpreter_test

import (
	"context"
	"os"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/interpreter"
	"github.com/mco-org/mco/pkg/interpreter/lua"
)

// webApp is the example WebApp kind's interpreter and an instance of it.
func webApp(tb testing.TB) (*interpreter.Interpreter, *unstructured.Unstructured) {
	tb.Helper()
	data, err := os.ReadFile("../../artifacts/examples/interpreter/webapp-customization.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	var c configv1alpha1.ResourceInterpreterCustomization
	if err := yaml.UnmarshalStrict(data, &c); err != nil {
		tb.Fatal(err)
	}
	set, errs := interpreter.NewSet([]*configv1alpha1.ResourceInterpreterCustomization{&c})
	if len(errs) > 0 {
		tb.Fatal(errs)
	}
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "demo.example.com/v1", "kind": "WebApp",
		"metadata": map[string]any{"name": "web", "namespace": "shop", "labels": map[string]any{"app": "web"}},
		"spec": map[string]any{"replicas": int64(4), "image": "nginx:1.27", "configRef": "web-config",
			"resources": map[string]any{"cpu": "100m", "memory": "64Mi"}},
		"status": map[string]any{"replicas": int64(4), "readyReplicas": int64(3)},
	}}
	return interpreter.New(lua.NewVM(), set), obj
}

// BenchmarkScriptCall is the cost of one call of each WebApp script
// through the interpreter the controllers use: converting the object to
// Lua, running the function in a fresh sandbox and converting back.
func BenchmarkScriptCall(b *testing.B) {
	interp, obj := webApp(b)
	ctx := context.Background()
	items := []workv1alpha2.AggregatedStatusItem{
		{ClusterName: "member1", Status: &runtime.RawExtension{Raw: []byte(`{"replicas":2,"readyReplicas":2}`)}},
		{ClusterName: "member2", Status: &runtime.RawExtension{Raw: []byte(`{"replicas":2,"readyReplicas":1}`)}},
	}
	for _, bc := range []struct {
		name string
		call func() error
	}{
		{"GetReplicas", func() error { _, err := interp.Interpret(ctx, obj); return err }},
		{"ReviseReplica", func() error { _, err := interp.ReviseReplicas(ctx, obj.DeepCopy(), 2); return err }},
		{"Retain", func() error { _, err := interp.Retain(ctx, obj.DeepCopy(), obj); return err }},
		{"ReflectStatus", func() error { _, err := interp.ReflectStatus(ctx, obj); return err }},
		{"AggregateStatus", func() error { _, _, err := interp.AggregateStatus(ctx, obj, items, metav1Now); return err }},
		{"InterpretHealth", func() error { _, err := interp.Health(ctx, obj); return err }},
		{"GetDependencies", func() error { _, err := interp.Dependencies(ctx, obj); return err }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := bc.call(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
