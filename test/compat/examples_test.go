// Package compat checks that Karmada users' YAML is accepted by mco unchanged.
package compat

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation/field"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/apiserver/pkg/endpoints/request"

	"github.com/mco-org/mco/pkg/apiserver"
	"github.com/mco-org/mco/pkg/registry/resource"
	"github.com/mco-org/mco/pkg/testing/repo"
)

// TestKarmadaExamplesDecodeStrictlyAndValidate decodes every document of
// Karmada's example manifests strictly (unknown fields are errors), applies
// defaults as the apiserver does, and validates it.
func TestKarmadaExamplesDecodeStrictlyAndValidate(t *testing.T) {
	t.Parallel()
	dir := repo.RequireKarmadaExamples(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	specs := apiserver.Resources()
	scheme, err := apiserver.NewScheme(specs, false)
	if err != nil {
		t.Fatal(err)
	}
	byKind := map[string]*resource.Spec{}
	for _, s := range specs {
		byKind[s.GroupVersion().WithKind(s.Kind).String()] = s
	}
	decoder := serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
	docs := 0
	for _, file := range files {
		for i, doc := range splitYAML(t, file) {
			docs++
			obj, gvk, err := decoder.Decode(doc, nil, nil)
			if err != nil {
				t.Errorf("%s document %d: strict decode: %v", filepath.Base(file), i, err)
				continue
			}
			spec, ok := byKind[gvk.String()]
			if !ok {
				t.Errorf("%s document %d: %s is not served by mco", filepath.Base(file), i, gvk)
				continue
			}
			if errs := validateAsServer(scheme, spec, obj); len(errs) > 0 {
				t.Errorf("%s document %d (%s): %v", filepath.Base(file), i, gvk.Kind, errs.ToAggregate())
			}
		}
	}
	if docs < len(files) {
		t.Fatalf("read %d documents from %d files", docs, len(files))
	}
	t.Logf("%d documents in %d files accepted", docs, len(files))
}

// validateAsServer defaults, prepares and validates obj as mco-apiserver
// does on create: namespaced objects land in "default" when they name none
// and cluster-scoped objects lose any namespace.
func validateAsServer(scheme *runtime.Scheme, spec *resource.Spec, obj runtime.Object) field.ErrorList {
	m := obj.(interface {
		GetNamespace() string
		SetNamespace(string)
	})
	switch {
	case !spec.Namespaced:
		m.SetNamespace("")
	case m.GetNamespace() == "":
		m.SetNamespace("default")
	}
	scheme.Default(obj)
	st := resource.CreateStrategy(scheme, spec)
	ctx := request.WithNamespace(context.Background(), m.GetNamespace())
	st.PrepareForCreate(ctx, obj)
	return st.Validate(ctx, obj)
}

func splitYAML(t *testing.T, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	reader := utilyaml.NewYAMLReader(bufioReader(data))
	var docs [][]byte
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return docs
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if strings.TrimSpace(stripComments(string(doc))) != "" {
			docs = append(docs, doc)
		}
	}
}
