package execution

import (
	"sort"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mco-org/mco/pkg/addon"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

func TestDropped(t *testing.T) {
	t.Parallel()
	id := func(group, version, kind, ns, name string) workv1alpha1.ResourceIdentifier {
		return workv1alpha1.ResourceIdentifier{Group: group, Version: version, Kind: kind, Namespace: ns, Name: name}
	}
	manifest := func(apiVersion, kind, ns, name string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{}
		u.SetAPIVersion(apiVersion)
		u.SetKind(kind)
		u.SetNamespace(ns)
		u.SetName(name)
		return u
	}
	tests := []struct {
		name      string
		before    []workv1alpha1.ResourceIdentifier
		manifests []*unstructured.Unstructured
		want      string
	}{
		{name: "nothing dropped", before: []workv1alpha1.ResourceIdentifier{id("apps", "v1", "Deployment", "logging", "lc")},
			manifests: []*unstructured.Unstructured{manifest("apps/v1", "Deployment", "logging", "lc")}},
		{name: "an object no longer rendered", before: []workv1alpha1.ResourceIdentifier{id("", "v1", "ConfigMap", "logging", "extra"), id("apps", "v1", "Deployment", "logging", "lc")},
			manifests: []*unstructured.Unstructured{manifest("apps/v1", "Deployment", "logging", "lc")}, want: "v1/ConfigMap logging/extra"},
		{name: "another version of the same object is not dropped", before: []workv1alpha1.ResourceIdentifier{id("autoscaling", "v1", "HorizontalPodAutoscaler", "logging", "lc")},
			manifests: []*unstructured.Unstructured{manifest("autoscaling/v2", "HorizontalPodAutoscaler", "logging", "lc")}},
		{name: "named twice (a held status too), dropped once", before: []workv1alpha1.ResourceIdentifier{id("", "v1", "Secret", "", "s"), id("", "v1", "Secret", "", "s")},
			want: "v1/Secret /s"},
		{name: "an identifier without kind or name is passed over", before: []workv1alpha1.ResourceIdentifier{{Ordinal: 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, o := range dropped(tt.before, tt.manifests) {
				got = append(got, o.GetAPIVersion()+"/"+o.GetKind()+" "+o.GetNamespace()+"/"+o.GetName())
			}
			if strings.Join(got, ", ") != tt.want {
				t.Errorf("dropped %v, want %q", got, tt.want)
			}
		})
	}
}

func TestHeldBy(t *testing.T) {
	t.Parallel()
	part := func(name string, deleting bool, manifests ...string) *workv1alpha1.Work {
		w := workWith(map[string]string{addon.AddonLabel: "lc"}, "", manifests...)
		w.Name, w.Annotations = name, map[string]string{addon.NamespaceAnnotation: "logging"}
		if deleting {
			w.DeletionTimestamp = &metav1.Time{}
		}
		return w
	}
	self := part("lc-1", false, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"moving"}}`)
	siblings := []*workv1alpha1.Work{
		self,
		part("lc-2", false, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"moving"}}`,
			`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"widgets.example.com"}}`),
		part("lc-3", true, `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"going","namespace":"logging"}}`),
	}
	var got []string
	for k := range heldBy(self, siblings) {
		got = append(got, k.kind+" "+k.namespace+"/"+k.name)
	}
	sort.Strings(got)
	want := "ConfigMap /moving, ConfigMap logging/moving, CustomResourceDefinition /widgets.example.com, CustomResourceDefinition logging/widgets.example.com"
	if strings.Join(got, ", ") != want {
		t.Errorf("held %v, want %s", got, want)
	}
}
