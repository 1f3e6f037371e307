package binding

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/overridemanager"
	"github.com/mco-org/mco/pkg/works"
)

// rbView is the ResourceBinding shop/web-deployment with permanent id rb-id.
func rbView(spec workv1alpha2.ResourceBindingSpec) *binding.View {
	v := binding.New(binding.Key{Namespace: "shop", Name: "web-deployment"})
	v.Meta.Labels = map[string]string{workv1alpha2.ResourceBindingPermanentIDLabel: "rb-id"}
	*v.Spec = spec
	return v
}

// crbView is the ClusterResourceBinding shop-namespace with permanent id crb-id.
func crbView(spec workv1alpha2.ResourceBindingSpec) *binding.View {
	v := binding.New(binding.Key{Name: "shop-namespace"})
	v.Meta.Labels = map[string]string{workv1alpha2.ClusterResourceBindingPermanentIDLabel: "crb-id"}
	*v.Spec = spec
	return v
}

func webManifest() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"namespace": "shop", "name": "web"},
		"spec":     map[string]any{"replicas": int64(2)},
	}}
}

func namespaceManifest() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "shop"},
	}}
}

func raw(t *testing.T, obj map[string]any) []workv1alpha1.Manifest {
	t.Helper()
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return []workv1alpha1.Manifest{{RawExtension: runtime.RawExtension{Raw: b}}}
}

var (
	imageRule = policyv1alpha1.Overriders{ImageOverrider: []policyv1alpha1.ImageOverrider{{Component: "Registry", Operator: policyv1alpha1.OverriderOpReplace, Value: "mirror.example.com"}}}
	labelRule = policyv1alpha1.Overriders{LabelsOverrider: []policyv1alpha1.LabelAnnotationOverrider{{Operator: policyv1alpha1.OverriderOpAdd, Value: map[string]string{"env": "prod"}}}}
)

// appliedIn decodes an applied-overrides annotation of a Work.
func appliedIn(t *testing.T, w *workv1alpha1.Work, key string) []appliedOverride {
	t.Helper()
	v, ok := w.Annotations[key]
	if !ok {
		return nil
	}
	var out []appliedOverride
	if err := json.Unmarshal([]byte(v), &out); err != nil {
		t.Fatalf("annotation %s = %s is not a JSON list of applied overrides: %v", key, v, err)
	}
	return out
}

func TestDesiredWork(t *testing.T) {
	t.Parallel()
	rbAnnotations := map[string]string{
		workv1alpha2.ResourceBindingNamespaceAnnotationKey: "shop",
		workv1alpha2.ResourceBindingNameAnnotationKey:      "web-deployment",
	}
	rbLabels := map[string]string{workv1alpha2.ResourceBindingPermanentIDLabel: "rb-id"}
	webWork := func(cluster string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Namespace: names.ExecutionSpace(cluster), Name: names.Work("Deployment", "web", "shop"),
			Labels: rbLabels, Annotations: rbAnnotations}
	}
	cases := []struct {
		name           string
		view           *binding.View
		manifest       *unstructured.Unstructured
		cluster        string
		applied        overridemanager.Applied
		wantMeta       metav1.ObjectMeta
		wantSpec       workv1alpha1.WorkSpec // without manifests
		wantOverrides  []appliedOverride
		wantCOverrides []appliedOverride
	}{
		{
			name:     "A ResourceBinding's Work lives in the cluster's execution space, named after the manifest, with the binding's id label and name annotations.",
			view:     rbView(workv1alpha2.ResourceBindingSpec{}),
			manifest: webManifest(), cluster: "m1",
			wantMeta: webWork("m1"),
		},
		{
			name:     "A ClusterResourceBinding's Work carries the cluster binding's id label and name annotation.",
			view:     crbView(workv1alpha2.ResourceBindingSpec{}),
			manifest: namespaceManifest(), cluster: "m2",
			wantMeta: metav1.ObjectMeta{Namespace: names.ExecutionSpace("m2"), Name: names.Work("Namespace", "shop", ""),
				Labels:      map[string]string{workv1alpha2.ClusterResourceBindingPermanentIDLabel: "crb-id"},
				Annotations: map[string]string{workv1alpha2.ClusterResourceBindingAnnotationKey: "shop-namespace"}},
		},
		{
			name:     "Applied overrides are listed by kind, one entry per rule, sorted by policy name as Karmada writes them.",
			view:     rbView(workv1alpha2.ResourceBindingSpec{}),
			manifest: webManifest(), cluster: "m1",
			applied: overridemanager.Applied{
				{Name: "mirror", Overriders: []policyv1alpha1.Overriders{imageRule}},
				{Name: "zeta", Overriders: []policyv1alpha1.Overriders{labelRule}},
				{Namespace: "shop", Name: "b-local", Overriders: []policyv1alpha1.Overriders{labelRule, imageRule}},
				{Namespace: "shop", Name: "a-local", Overriders: []policyv1alpha1.Overriders{imageRule}},
			},
			wantMeta: webWork("m1"),
			wantCOverrides: []appliedOverride{
				{PolicyName: "mirror", Overriders: imageRule},
				{PolicyName: "zeta", Overriders: labelRule},
			},
			wantOverrides: []appliedOverride{
				{PolicyName: "a-local", Overriders: imageRule},
				{PolicyName: "b-local", Overriders: labelRule},
				{PolicyName: "b-local", Overriders: imageRule},
			},
		},
		{
			name:     "Only namespaced override policies leave the cluster annotation off.",
			view:     rbView(workv1alpha2.ResourceBindingSpec{}),
			manifest: webManifest(), cluster: "m1",
			applied:       overridemanager.Applied{{Namespace: "shop", Name: "local", Overriders: []policyv1alpha1.Overriders{labelRule}}},
			wantMeta:      webWork("m1"),
			wantOverrides: []appliedOverride{{PolicyName: "local", Overriders: labelRule}},
		},
		{
			name: "Dispatching suspended on the Work's cluster suspends the Work.",
			view: rbView(workv1alpha2.ResourceBindingSpec{Suspension: &workv1alpha2.Suspension{Suspension: policyv1alpha1.Suspension{
				DispatchingOnClusters: &policyv1alpha1.SuspendClusters{ClusterNames: []string{"m1"}}}}}),
			manifest: webManifest(), cluster: "m1",
			wantMeta: webWork("m1"),
			wantSpec: workv1alpha1.WorkSpec{SuspendDispatching: ptr.To(true)},
		},
		{
			name: "Dispatching suspended on another cluster leaves the Work alone.",
			view: rbView(workv1alpha2.ResourceBindingSpec{Suspension: &workv1alpha2.Suspension{Suspension: policyv1alpha1.Suspension{
				DispatchingOnClusters: &policyv1alpha1.SuspendClusters{ClusterNames: []string{"m2"}}}}}),
			manifest: webManifest(), cluster: "m1",
			wantMeta: webWork("m1"),
		},
		{
			name:     "Resources preserved on deletion are preserved by the Work.",
			view:     rbView(workv1alpha2.ResourceBindingSpec{PreserveResourcesOnDeletion: ptr.To(true)}),
			manifest: webManifest(), cluster: "m1",
			wantMeta: webWork("m1"),
			wantSpec: workv1alpha1.WorkSpec{PreserveResourcesOnDeletion: ptr.To(true)},
		},
		{
			name:     "Preservation set to false is left off the Work.",
			view:     rbView(workv1alpha2.ResourceBindingSpec{PreserveResourcesOnDeletion: ptr.To(false)}),
			manifest: webManifest(), cluster: "m1",
			wantMeta: webWork("m1"),
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w, err := desiredWork(tc.view, tc.manifest, tc.cluster, tc.applied)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantOverrides, appliedIn(t, w, AppliedOverridesAnnotation)); diff != "" {
				t.Errorf("applied overrides differ (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantCOverrides, appliedIn(t, w, AppliedClusterOverridesAnnotation)); diff != "" {
				t.Errorf("applied cluster overrides differ (-want +got):\n%s", diff)
			}
			if !works.ManifestsEqual(raw(t, tc.manifest.Object), w.Spec.Workload.Manifests) {
				t.Errorf("manifests = %s, want the rendered manifest alone", w.Spec.Workload.Manifests)
			}
			meta := *w.ObjectMeta.DeepCopy()
			delete(meta.Annotations, AppliedOverridesAnnotation)
			delete(meta.Annotations, AppliedClusterOverridesAnnotation)
			want := *tc.wantMeta.DeepCopy()
			want.Finalizers = []string{workv1alpha1.ExecutionControllerFinalizer} // every Work is born held for withdrawal
			if diff := cmp.Diff(want, meta); diff != "" {
				t.Errorf("metadata differs (-want +got):\n%s", diff)
			}
			spec := w.Spec
			spec.Workload = workv1alpha1.WorkloadTemplate{}
			if diff := cmp.Diff(tc.wantSpec, spec); diff != "" {
				t.Errorf("spec differs (-want +got):\n%s", diff)
			}
		})
	}
}

// karmadaShadow is how Karmada writes and reads one entry of the
// applied-overrides annotations: one policy (or one rule of it) with a
// single Overriders object.
type karmadaShadow struct {
	PolicyName string                    `json:"policyName"`
	Overriders policyv1alpha1.Overriders `json:"overriders"`
}

func TestAppliedOverridesReadAsKarmadaWritesThem(t *testing.T) {
	t.Parallel()
	applied := overridemanager.Applied{{Namespace: "shop", Name: "local", Overriders: []policyv1alpha1.Overriders{labelRule}}}
	w, err := desiredWork(rbView(workv1alpha2.ResourceBindingSpec{}), webManifest(), "m1", applied)
	if err != nil {
		t.Fatal(err)
	}
	var got []karmadaShadow
	if err := json.Unmarshal([]byte(w.Annotations[AppliedOverridesAnnotation]), &got); err != nil {
		t.Fatalf("Karmada cannot read %s: %v", w.Annotations[AppliedOverridesAnnotation], err)
	}
	want := []karmadaShadow{{PolicyName: "local", Overriders: labelRule}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries differ (-want +got):\n%s", diff)
	}
}

func TestMergeWork(t *testing.T) {
	t.Parallel()
	desired := func(t *testing.T, applied overridemanager.Applied, spec workv1alpha2.ResourceBindingSpec) *workv1alpha1.Work {
		w, err := desiredWork(rbView(spec), webManifest(), "m1", applied)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	local := overridemanager.Applied{{Namespace: "shop", Name: "local", Overriders: []policyv1alpha1.Overriders{labelRule}}}
	global := overridemanager.Applied{{Name: "global", Overriders: []policyv1alpha1.Overriders{imageRule}}}
	cases := []struct {
		name        string
		have        func(t *testing.T) *workv1alpha1.Work
		want        func(t *testing.T) *workv1alpha1.Work
		wantChanged bool
	}{
		{
			name:        "A Work equal to the desired one does not change.",
			have:        func(t *testing.T) *workv1alpha1.Work { return desired(t, local, workv1alpha2.ResourceBindingSpec{}) },
			want:        func(t *testing.T) *workv1alpha1.Work { return desired(t, local, workv1alpha2.ResourceBindingSpec{}) },
			wantChanged: false,
		},
		{
			name: "A manifest whose JSON keys are in another order is no change.",
			have: func(t *testing.T) *workv1alpha1.Work {
				w := desired(t, nil, workv1alpha2.ResourceBindingSpec{})
				w.Spec.Workload.Manifests[0].Raw = []byte(`{"spec":{"replicas":2},"metadata":{"name":"web","namespace":"shop"},"kind":"Deployment","apiVersion":"apps/v1"}`)
				return w
			},
			want: func(t *testing.T) *workv1alpha1.Work { return desired(t, nil, workv1alpha2.ResourceBindingSpec{}) },
		},
		{
			name: "Labels and annotations set by others are kept and are no change.",
			have: func(t *testing.T) *workv1alpha1.Work {
				w := desired(t, nil, workv1alpha2.ResourceBindingSpec{})
				w.Labels["work.karmada.io/permanent-id"] = "w-id"
				w.Annotations["note"] = "hand-written"
				return w
			},
			want: func(t *testing.T) *workv1alpha1.Work { return desired(t, nil, workv1alpha2.ResourceBindingSpec{}) },
		},
		{
			name: "A changed manifest is reported.",
			have: func(t *testing.T) *workv1alpha1.Work {
				w := desired(t, nil, workv1alpha2.ResourceBindingSpec{})
				w.Spec.Workload.Manifests[0].Raw = []byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop"},"spec":{"replicas":3}}`)
				return w
			},
			want:        func(t *testing.T) *workv1alpha1.Work { return desired(t, nil, workv1alpha2.ResourceBindingSpec{}) },
			wantChanged: true,
		},
		{
			name:        "A Work written before the overrides existed gets their annotation.",
			have:        func(t *testing.T) *workv1alpha1.Work { return desired(t, nil, workv1alpha2.ResourceBindingSpec{}) },
			want:        func(t *testing.T) *workv1alpha1.Work { return desired(t, local, workv1alpha2.ResourceBindingSpec{}) },
			wantChanged: true,
		},
		{
			name: "Applied-overrides annotations of overrides that no longer apply are removed.",
			have: func(t *testing.T) *workv1alpha1.Work {
				return desired(t, append(global, local...), workv1alpha2.ResourceBindingSpec{})
			},
			want:        func(t *testing.T) *workv1alpha1.Work { return desired(t, nil, workv1alpha2.ResourceBindingSpec{}) },
			wantChanged: true,
		},
		{
			name:        "A change of the override policies that applied is reported.",
			have:        func(t *testing.T) *workv1alpha1.Work { return desired(t, global, workv1alpha2.ResourceBindingSpec{}) },
			want:        func(t *testing.T) *workv1alpha1.Work { return desired(t, local, workv1alpha2.ResourceBindingSpec{}) },
			wantChanged: true,
		},
		{
			name: "A lifted suspension is reported.",
			have: func(t *testing.T) *workv1alpha1.Work {
				return desired(t, nil, workv1alpha2.ResourceBindingSpec{Suspension: &workv1alpha2.Suspension{
					Suspension: policyv1alpha1.Suspension{Dispatching: ptr.To(true)}}})
			},
			want:        func(t *testing.T) *workv1alpha1.Work { return desired(t, nil, workv1alpha2.ResourceBindingSpec{}) },
			wantChanged: true,
		},
		{
			name: "A new preservation on deletion is reported.",
			have: func(t *testing.T) *workv1alpha1.Work { return desired(t, nil, workv1alpha2.ResourceBindingSpec{}) },
			want: func(t *testing.T) *workv1alpha1.Work {
				return desired(t, nil, workv1alpha2.ResourceBindingSpec{PreserveResourcesOnDeletion: ptr.To(true)})
			},
			wantChanged: true,
		},
		{
			name: "A Work whose binding label was removed by hand gets it back.",
			have: func(t *testing.T) *workv1alpha1.Work {
				w := desired(t, nil, workv1alpha2.ResourceBindingSpec{})
				w.Labels = nil
				return w
			},
			want:        func(t *testing.T) *workv1alpha1.Work { return desired(t, nil, workv1alpha2.ResourceBindingSpec{}) },
			wantChanged: true,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			have, want := tc.have(t), tc.want(t)
			others := map[string]string{}
			for k, v := range have.Annotations {
				if _, owned := want.Annotations[k]; !owned && k != AppliedOverridesAnnotation && k != AppliedClusterOverridesAnnotation {
					others[k] = v
				}
			}
			otherLabels := map[string]string{}
			for k, v := range have.Labels {
				if _, owned := want.Labels[k]; !owned {
					otherLabels[k] = v
				}
			}
			if got := works.Merge(have, want, appliedAnnotations...); got != tc.wantChanged {
				t.Errorf("Merge = %v, want %v", got, tc.wantChanged)
			}
			// Afterwards the Work holds what is desired plus what others set.
			wantAnnotations, wantLabels := others, otherLabels
			for k, v := range want.Annotations {
				wantAnnotations[k] = v
			}
			for k, v := range want.Labels {
				wantLabels[k] = v
			}
			if diff := cmp.Diff(wantAnnotations, have.Annotations); diff != "" {
				t.Errorf("annotations differ (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(wantLabels, have.Labels); diff != "" {
				t.Errorf("labels differ (-want +got):\n%s", diff)
			}
			if !works.ManifestsEqual(want.Spec.Workload.Manifests, have.Spec.Workload.Manifests) {
				t.Errorf("manifests = %s, want %s", have.Spec.Workload.Manifests, want.Spec.Workload.Manifests)
			}
			if diff := cmp.Diff(want.Spec.SuspendDispatching, have.Spec.SuspendDispatching); diff != "" {
				t.Errorf("suspendDispatching differs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want.Spec.PreserveResourcesOnDeletion, have.Spec.PreserveResourcesOnDeletion); diff != "" {
				t.Errorf("preserveResourcesOnDeletion differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPreservedLabels(t *testing.T) {
	t.Parallel()
	task := workv1alpha2.GracefulEvictionTask{FromCluster: "member2", PreservedLabelState: map[string]string{"state": "2"},
		ClustersBeforeFailover: []string{"member1", "member2"}}
	remembering := func(labels string) *workv1alpha1.Work {
		return &workv1alpha1.Work{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{PreservedLabelsAnnotation: labels}}}
	}
	cases := []struct {
		name     string
		tasks    []workv1alpha2.GracefulEvictionTask
		cluster  string
		existing *workv1alpha1.Work
		want     map[string]string
	}{
		{name: "A cluster new after the failover gets the state.", tasks: []workv1alpha2.GracefulEvictionTask{task}, cluster: "member3",
			want: map[string]string{"state": "2"}},
		{name: "The cluster left does not.", tasks: []workv1alpha2.GracefulEvictionTask{task}, cluster: "member2", want: map[string]string{}},
		{name: "Nor one that ran the workload before.", tasks: []workv1alpha2.GracefulEvictionTask{task}, cluster: "member1", want: map[string]string{}},
		{name: "Once the task is done, the Work remembers it.", cluster: "member3", existing: remembering(`{"state":"2"}`),
			want: map[string]string{"state": "2"}},
		{name: "A later failover's state wins.", tasks: []workv1alpha2.GracefulEvictionTask{task}, cluster: "member3",
			existing: remembering(`{"state":"1","other":"x"}`), want: map[string]string{"state": "2", "other": "x"}},
		{name: "A malformed memory is dropped.", cluster: "member3", existing: remembering(`{`), want: map[string]string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := preservedLabels(tc.tasks, tc.cluster, tc.existing)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("labels (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAddPreservedLabels(t *testing.T) {
	t.Parallel()
	m := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "web", "labels": map[string]any{"app": "web"}}}}
	addPreservedLabels(m, map[string]string{"state": "2"})
	if got := m.GetLabels(); got["state"] != "2" || got["app"] != "web" {
		t.Errorf("labels %v", got)
	}
	w := &workv1alpha1.Work{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{}}}
	if err := rememberPreserved(w, map[string]string{"state": "2"}); err != nil || w.Annotations[PreservedLabelsAnnotation] != `{"state":"2"}` {
		t.Errorf("annotation %q, %v", w.Annotations[PreservedLabelsAnnotation], err)
	}
	if err := rememberPreserved(w, nil); err != nil || w.Annotations[PreservedLabelsAnnotation] != `{"state":"2"}` {
		t.Error("nothing to remember changed the annotation")
	}
}
