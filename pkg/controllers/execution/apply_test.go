package execution

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

// workWith is the Work karmada-es-m1/web-abc with UID uid.
func workWith(labels map[string]string, uid types.UID, manifests ...string) *workv1alpha1.Work {
	w := &workv1alpha1.Work{ObjectMeta: metav1.ObjectMeta{Namespace: "karmada-es-m1", Name: "web-abc", Labels: labels, UID: uid}}
	for _, m := range manifests {
		w.Spec.Workload.Manifests = append(w.Spec.Workload.Manifests, workv1alpha1.Manifest{RawExtension: runtime.RawExtension{Raw: []byte(m)}})
	}
	return w
}

func TestDecodeManifests(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		work    *workv1alpha1.Work
		want    []map[string]any
		wantErr string
	}{
		{name: "A Work without manifests decodes to nothing.", work: workWith(nil, "w-uid"), want: []map[string]any{}},
		{
			name: "Manifests decode in order.",
			work: workWith(nil, "w-uid",
				`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}`,
				`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"namespace":"shop","name":"web"},"spec":{"replicas":2}}`),
			want: []map[string]any{
				{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "a"}},
				{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"namespace": "shop", "name": "web"},
					"spec": map[string]any{"replicas": float64(2)}},
			},
		},
		{
			name:    "A manifest that is not JSON is an error naming its index and the Work.",
			work:    workWith(nil, "w-uid", `{"kind":"ConfigMap"}`, `{broken`),
			wantErr: "manifest 1 of work karmada-es-m1/web-abc",
		},
		{
			name:    "A manifest that is a JSON list is an error.",
			work:    workWith(nil, "w-uid", `[1,2]`),
			wantErr: "manifest 0 of work karmada-es-m1/web-abc",
		},
		{
			name:    "An empty manifest is an error.",
			work:    workWith(nil, "w-uid", ``),
			wantErr: "manifest 0 of work karmada-es-m1/web-abc",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := decodeManifests(tc.work)
			if tc.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want an error starting %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			objects := make([]map[string]any, len(got))
			for i, u := range got {
				objects[i] = u.Object
			}
			if diff := cmp.Diff(tc.want, objects); diff != "" {
				t.Errorf("manifests differ (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStamp(t *testing.T) {
	t.Parallel()
	manifest := func(labels, annotations map[string]any) *unstructured.Unstructured {
		meta := map[string]any{"namespace": "shop", "name": "web"}
		if labels != nil {
			meta["labels"] = labels
		}
		if annotations != nil {
			meta["annotations"] = annotations
		}
		return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta}}
	}
	cases := []struct {
		name            string
		manifest        *unstructured.Unstructured
		work            *workv1alpha1.Work
		wantLabels      map[string]string
		wantAnnotations map[string]string
	}{
		{
			name:            "A manifest without labels or annotations gets the Work's permanent id and name.",
			manifest:        manifest(nil, nil),
			work:            workWith(map[string]string{workv1alpha1.WorkPermanentIDLabel: "w-id"}, "w-uid"),
			wantLabels:      map[string]string{workv1alpha1.WorkPermanentIDLabel: "w-id"},
			wantAnnotations: map[string]string{workv1alpha1.WorkNamespaceAnnotation: "karmada-es-m1", workv1alpha1.WorkNameAnnotation: "web-abc"},
		},
		{
			name:       "The manifest's own labels and annotations are kept.",
			manifest:   manifest(map[string]any{"app": "web"}, map[string]any{"team": "a"}),
			work:       workWith(map[string]string{workv1alpha1.WorkPermanentIDLabel: "w-id"}, "w-uid"),
			wantLabels: map[string]string{"app": "web", workv1alpha1.WorkPermanentIDLabel: "w-id"},
			wantAnnotations: map[string]string{"team": "a", workv1alpha1.WorkNamespaceAnnotation: "karmada-es-m1",
				workv1alpha1.WorkNameAnnotation: "web-abc"},
		},
		{
			name:            "A Work without permanent id label stamps its UID.",
			manifest:        manifest(nil, nil),
			work:            workWith(nil, "w-uid"),
			wantLabels:      map[string]string{workv1alpha1.WorkPermanentIDLabel: "w-uid"},
			wantAnnotations: map[string]string{workv1alpha1.WorkNamespaceAnnotation: "karmada-es-m1", workv1alpha1.WorkNameAnnotation: "web-abc"},
		},
		{
			name: "Stale marks copied from elsewhere are replaced by this Work's.",
			manifest: manifest(map[string]any{workv1alpha1.WorkPermanentIDLabel: "old"},
				map[string]any{workv1alpha1.WorkNamespaceAnnotation: "karmada-es-m9", workv1alpha1.WorkNameAnnotation: "old"}),
			work:            workWith(map[string]string{workv1alpha1.WorkPermanentIDLabel: "w-id"}, "w-uid"),
			wantLabels:      map[string]string{workv1alpha1.WorkPermanentIDLabel: "w-id"},
			wantAnnotations: map[string]string{workv1alpha1.WorkNamespaceAnnotation: "karmada-es-m1", workv1alpha1.WorkNameAnnotation: "web-abc"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			before := tc.manifest.DeepCopy()
			got := stamp(tc.manifest, tc.work)
			if diff := cmp.Diff(before.Object, tc.manifest.Object); diff != "" {
				t.Errorf("stamp changed its input (-before +after):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantLabels, got.GetLabels()); diff != "" {
				t.Errorf("labels differ (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantAnnotations, got.GetAnnotations()); diff != "" {
				t.Errorf("annotations differ (-want +got):\n%s", diff)
			}
			if got.GetName() != "web" || got.GetNamespace() != "shop" || got.GetKind() != "ConfigMap" {
				t.Errorf("stamped object is %s %s/%s, want ConfigMap shop/web", got.GetKind(), got.GetNamespace(), got.GetName())
			}
		})
	}
}

func TestManagedBy(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		labels map[string]string
		want   bool
	}{
		{name: "An object carrying a Work's permanent id was applied by mco.", labels: map[string]string{workv1alpha1.WorkPermanentIDLabel: "w-id"}, want: true},
		{name: "An object carrying the label empty was applied by mco too.", labels: map[string]string{workv1alpha1.WorkPermanentIDLabel: ""}, want: true},
		{name: "An object with other labels only was not applied by mco.", labels: map[string]string{"app": "web"}},
		{name: "An object without labels was not applied by mco."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			u := &unstructured.Unstructured{Object: map[string]any{}}
			u.SetLabels(tc.labels)
			if got := managedBy(u); got != tc.want {
				t.Errorf("managedBy = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestPermanentID(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		work *workv1alpha1.Work
		want string
	}{
		{name: "The permanent id label is the Work's id.", work: workWith(map[string]string{workv1alpha1.WorkPermanentIDLabel: "w-id"}, "w-uid"), want: "w-id"},
		{name: "Without the label the UID stands in.", work: workWith(map[string]string{"other": "x"}, "w-uid"), want: "w-uid"},
		{name: "An empty label falls back to the UID.", work: workWith(map[string]string{workv1alpha1.WorkPermanentIDLabel: ""}, "w-uid"), want: "w-uid"},
		{name: "A Work with neither has no id.", work: workWith(nil, "")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := permanentID(tc.work); got != tc.want {
				t.Errorf("permanentID = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestName(t *testing.T) {
	t.Parallel()
	namespaced := &unstructured.Unstructured{Object: map[string]any{}}
	namespaced.SetNamespace("shop")
	namespaced.SetName("web")
	clusterScoped := &unstructured.Unstructured{Object: map[string]any{}}
	clusterScoped.SetName("shop")
	if got := name(namespaced); got != "shop/web" {
		t.Errorf("name of a namespaced object = %q, want shop/web", got)
	}
	if got := name(clusterScoped); got != "shop" {
		t.Errorf("name of a cluster-scoped object = %q, want shop", got)
	}
}
