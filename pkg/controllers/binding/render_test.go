package binding

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/utils/ptr"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/interpreter"
)

const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// serverMetadata is what mco-apiserver sets on a template, none of which
// may travel to a member.
func serverMetadata() map[string]any {
	return map[string]any{
		"uid": "tmpl-uid", "resourceVersion": "42", "generation": int64(4),
		"creationTimestamp": "2025-01-01T00:00:00Z", "deletionTimestamp": "2025-01-02T00:00:00Z",
		"deletionGracePeriodSeconds": int64(30), "selfLink": "/apis/x", "generateName": "gen-",
		"managedFields":   []any{map[string]any{"manager": "kubectl", "operation": "Update"}},
		"ownerReferences": []any{map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": "o", "uid": "o-uid"}},
		"finalizers":      []any{"example.com/keep"},
	}
}

// tmplObject builds a template: server metadata plus namespace, name, labels,
// annotations, the given top-level fields and a status.
func tmplObject(apiVersion, kind string, labels, annotations map[string]any, fields map[string]any) *unstructured.Unstructured {
	meta := serverMetadata()
	meta["namespace"], meta["name"] = "shop", "web"
	if labels != nil {
		meta["labels"] = labels
	}
	if annotations != nil {
		meta["annotations"] = annotations
	}
	obj := map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": meta, "status": map[string]any{"observedGeneration": int64(3)}}
	for k, v := range fields {
		obj[k] = v
	}
	return &unstructured.Unstructured{Object: obj}
}

// rendered is a manifest as it must travel: only namespace, name, labels
// and annotations in metadata, with mco's marks added to the annotations.
func rendered(apiVersion, kind string, labels map[string]any, annotations map[string]any, managedLabels, managedAnnotations, conflict string, fields map[string]any) map[string]any {
	all := map[string]any{
		workv1alpha1.ManagedLabels:                        managedLabels,
		workv1alpha1.ManagedAnnotations:                   managedAnnotations,
		workv1alpha1.ResourceTemplateUIDAnnotation:        "tmpl-uid",
		workv1alpha1.ResourceTemplateGenerationAnnotation: "4",
		workv1alpha1.ResourceConflictResolutionAnnotation: conflict,
	}
	for k, v := range annotations {
		all[k] = v
	}
	meta := map[string]any{"namespace": "shop", "name": "web", "annotations": all}
	if labels != nil {
		meta["labels"] = labels
	}
	obj := map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": meta}
	for k, v := range fields {
		obj[k] = v
	}
	return obj
}

func deploymentSpec(replicas int64) map[string]any {
	return map[string]any{
		"replicas": replicas,
		"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
		"template": map[string]any{
			"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
			"spec":     map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}},
		},
	}
}

func jobSpec(parallelism int64, manualSelector bool, podLabels map[string]any) map[string]any {
	s := map[string]any{
		"parallelism": parallelism, "completions": int64(4), "ttlSecondsAfterFinished": int64(100),
		"selector": map[string]any{"matchLabels": map[string]any{"batch.kubernetes.io/controller-uid": "abc"}},
		"template": map[string]any{
			"metadata": map[string]any{"labels": podLabels},
			"spec":     map[string]any{"restartPolicy": "Never", "containers": []any{map[string]any{"name": "c", "image": "busybox"}}},
		},
	}
	if manualSelector {
		s["manualSelector"] = true
	}
	return s
}

func TestRender(t *testing.T) {
	t.Parallel()
	generatedPodLabels := func() map[string]any {
		return map[string]any{"app": "job", "controller-uid": "abc", "job-name": "web",
			"batch.kubernetes.io/controller-uid": "abc", "batch.kubernetes.io/job-name": "web"}
	}
	divided := &workv1alpha2.ResourceBindingSpec{Replicas: 5}
	cases := []struct {
		name    string
		tmpl    *unstructured.Unstructured
		spec    *workv1alpha2.ResourceBindingSpec
		target  workv1alpha2.TargetCluster
		want    map[string]any
		wantErr bool
	}{
		{
			name: "A Deployment loses status, server metadata and kubectl's record, gets the cluster's share and mco's marks.",
			tmpl: tmplObject("apps/v1", "Deployment",
				map[string]any{"tier": "front", "app": "web"},
				map[string]any{"team": "a", lastApplied: "{}"},
				map[string]any{"spec": deploymentSpec(5)}),
			spec:   divided,
			target: workv1alpha2.TargetCluster{Name: "m1", Replicas: 2},
			want: rendered("apps/v1", "Deployment",
				map[string]any{"tier": "front", "app": "web"}, map[string]any{"team": "a"},
				"app,tier", "team", workv1alpha1.ResourceConflictResolutionAbort,
				map[string]any{"spec": deploymentSpec(2)}),
		},
		{
			name:   "A cluster's share of zero is written.",
			tmpl:   tmplObject("apps/v1", "Deployment", nil, nil, map[string]any{"spec": deploymentSpec(5)}),
			spec:   divided,
			target: workv1alpha2.TargetCluster{Name: "m1"},
			want: rendered("apps/v1", "Deployment", nil, nil, "", "", workv1alpha1.ResourceConflictResolutionAbort,
				map[string]any{"spec": deploymentSpec(0)}),
		},
		{
			name:   "The replica count is left alone when the binding has no replicas.",
			tmpl:   tmplObject("apps/v1", "Deployment", nil, nil, map[string]any{"spec": deploymentSpec(5)}),
			spec:   &workv1alpha2.ResourceBindingSpec{},
			target: workv1alpha2.TargetCluster{Name: "m1"},
			want: rendered("apps/v1", "Deployment", nil, nil, "", "", workv1alpha1.ResourceConflictResolutionAbort,
				map[string]any{"spec": deploymentSpec(5)}),
		},
		{
			name:   "Conflict resolution Overwrite is marked overwrite.",
			tmpl:   tmplObject("v1", "ConfigMap", map[string]any{"app": "web"}, nil, map[string]any{"data": map[string]any{"k": "v"}}),
			spec:   &workv1alpha2.ResourceBindingSpec{ConflictResolution: policyv1alpha1.ConflictOverwrite},
			target: workv1alpha2.TargetCluster{Name: "m1"},
			want: rendered("v1", "ConfigMap", map[string]any{"app": "web"}, nil, "app", "", workv1alpha1.ResourceConflictResolutionOverwrite,
				map[string]any{"data": map[string]any{"k": "v"}}),
		},
		{
			name:   "A template whose only annotation is kubectl's record manages no annotation.",
			tmpl:   tmplObject("v1", "ConfigMap", nil, map[string]any{lastApplied: "{}"}, nil),
			spec:   &workv1alpha2.ResourceBindingSpec{ConflictResolution: policyv1alpha1.ConflictAbort},
			target: workv1alpha2.TargetCluster{Name: "m1"},
			want:   rendered("v1", "ConfigMap", nil, nil, "", "", workv1alpha1.ResourceConflictResolutionAbort, nil),
		},
		{
			name: "A Service loses the cluster IPs its cluster allocated.",
			tmpl: tmplObject("v1", "Service", nil, nil, map[string]any{"spec": map[string]any{
				"type": "ClusterIP", "clusterIP": "10.0.0.5", "clusterIPs": []any{"10.0.0.5"},
				"ports": []any{map[string]any{"port": int64(80)}},
			}}),
			spec:   &workv1alpha2.ResourceBindingSpec{},
			target: workv1alpha2.TargetCluster{Name: "m1"},
			want: rendered("v1", "Service", nil, nil, "", "", workv1alpha1.ResourceConflictResolutionAbort,
				map[string]any{"spec": map[string]any{"type": "ClusterIP", "ports": []any{map[string]any{"port": int64(80)}}}}),
		},
		{
			name: "A headless Service stays headless: clusterIP None is a choice, not an allocation.",
			tmpl: tmplObject("v1", "Service", nil, nil, map[string]any{"spec": map[string]any{
				"type": "ClusterIP", "clusterIP": "None", "clusterIPs": []any{"None"},
				"ports": []any{map[string]any{"port": int64(80)}},
			}}),
			spec:   &workv1alpha2.ResourceBindingSpec{},
			target: workv1alpha2.TargetCluster{Name: "m1"},
			want: rendered("v1", "Service", nil, nil, "", "", workv1alpha1.ResourceConflictResolutionAbort,
				map[string]any{"spec": map[string]any{"type": "ClusterIP", "clusterIP": "None", "clusterIPs": []any{"None"},
					"ports": []any{map[string]any{"port": int64(80)}}}}),
		},
		{
			name:   "A Job loses its TTL and generated selector and pod labels, and runs the cluster's share in parallel.",
			tmpl:   tmplObject("batch/v1", "Job", nil, nil, map[string]any{"spec": jobSpec(4, false, generatedPodLabels())}),
			spec:   &workv1alpha2.ResourceBindingSpec{Replicas: 4},
			target: workv1alpha2.TargetCluster{Name: "m1", Replicas: 1},
			want: rendered("batch/v1", "Job", nil, nil, "", "", workv1alpha1.ResourceConflictResolutionAbort,
				map[string]any{"spec": func() map[string]any {
					s := jobSpec(1, false, map[string]any{"app": "job"})
					delete(s, "ttlSecondsAfterFinished")
					delete(s, "selector")
					return s
				}()}),
		},
		{
			name:   "A Job with a manual selector keeps its selector and pod labels but not its TTL.",
			tmpl:   tmplObject("batch/v1", "Job", nil, nil, map[string]any{"spec": jobSpec(4, true, generatedPodLabels())}),
			spec:   &workv1alpha2.ResourceBindingSpec{},
			target: workv1alpha2.TargetCluster{Name: "m1"},
			want: rendered("batch/v1", "Job", nil, nil, "", "", workv1alpha1.ResourceConflictResolutionAbort,
				map[string]any{"spec": func() map[string]any {
					s := jobSpec(4, true, generatedPodLabels())
					delete(s, "ttlSecondsAfterFinished")
					return s
				}()}),
		},
		{
			name: "A Deployment whose spec is not an object cannot be given its share.",
			tmpl: tmplObject("apps/v1", "Deployment", nil, nil, map[string]any{"spec": "broken"}),
			spec: divided, target: workv1alpha2.TargetCluster{Name: "m1", Replicas: 2},
			wantErr: true,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			before := tc.tmpl.DeepCopy()
			got, err := render(tc.tmpl, tc.spec, tc.target, defaultRevise)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(before.Object, tc.tmpl.Object); diff != "" {
				t.Errorf("render changed the template (-before +after):\n%s", diff)
			}
			if tc.wantErr {
				return
			}
			if diff := cmp.Diff(tc.want, got.Object); diff != "" {
				t.Errorf("manifest differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPruneLeavesOtherKindsAlone(t *testing.T) {
	t.Parallel()
	// A custom kind named Service or Job is not the core one: its spec
	// fields mean something else and must travel.
	cases := []struct {
		name       string
		apiVersion string
		kind       string
		spec       map[string]any
	}{
		{name: "A Service of another group keeps its clusterIP field.", apiVersion: "example.com/v1", kind: "Service",
			spec: map[string]any{"clusterIP": "keep"}},
		{name: "A Job of another group keeps its selector and TTL.", apiVersion: "example.com/v1", kind: "Job",
			spec: map[string]any{"ttlSecondsAfterFinished": int64(5), "selector": map[string]any{"a": "b"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			obj := tmplObject(tc.apiVersion, tc.kind, nil, nil, map[string]any{"spec": tc.spec})
			prune(obj)
			want := map[string]any{"apiVersion": tc.apiVersion, "kind": tc.kind,
				"metadata": map[string]any{"namespace": "shop", "name": "web"}, "spec": tc.spec}
			if diff := cmp.Diff(want, obj.Object); diff != "" {
				t.Errorf("pruned object differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSuspended(t *testing.T) {
	t.Parallel()
	onClusters := func(names ...string) *workv1alpha2.Suspension {
		return &workv1alpha2.Suspension{Suspension: policyv1alpha1.Suspension{
			DispatchingOnClusters: &policyv1alpha1.SuspendClusters{ClusterNames: names}}}
	}
	cases := []struct {
		name       string
		suspension *workv1alpha2.Suspension
		cluster    string
		want       bool
	}{
		{name: "A binding without suspension dispatches everywhere.", cluster: "m1"},
		{name: "Suspended dispatching stops every cluster.",
			suspension: &workv1alpha2.Suspension{Suspension: policyv1alpha1.Suspension{Dispatching: ptr.To(true)}}, cluster: "m1", want: true},
		{name: "Dispatching set to false suspends nothing.",
			suspension: &workv1alpha2.Suspension{Suspension: policyv1alpha1.Suspension{Dispatching: ptr.To(false)}}, cluster: "m1"},
		{name: "Dispatching suspended on a listed cluster stops that cluster.", suspension: onClusters("m2", "m1"), cluster: "m1", want: true},
		{name: "Dispatching suspended on other clusters leaves this one alone.", suspension: onClusters("m2"), cluster: "m1"},
		{name: "Suspended scheduling does not suspend dispatching.",
			suspension: &workv1alpha2.Suspension{Scheduling: ptr.To(true)}, cluster: "m1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := suspended(&workv1alpha2.ResourceBindingSpec{Suspension: tc.suspension}, tc.cluster); got != tc.want {
				t.Errorf("suspended = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	t.Parallel()
	ns := &unstructured.Unstructured{}
	ns.SetKind("Namespace")
	ns.SetName("shop")
	cases := []struct {
		name string
		obj  *unstructured.Unstructured
		want string
	}{
		{name: "A namespaced template is named with its namespace.", obj: tmplObject("apps/v1", "Deployment", nil, nil, nil), want: "Deployment shop/web"},
		{name: "A cluster-scoped template is named alone.", obj: ns, want: "Namespace shop"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := describe(tc.obj); got != tc.want {
				t.Errorf("describe = %q, want %q", got, tc.want)
			}
		})
	}
}

// defaultRevise revises with mco's own rules.
func defaultRevise(obj *unstructured.Unstructured, replicas int32) (*unstructured.Unstructured, error) {
	return interpreter.Default().ReviseReplicas(context.Background(), obj, replicas)
}
