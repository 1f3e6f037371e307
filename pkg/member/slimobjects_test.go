package member

import (
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/cache"

	"github.com/mco-org/mco/pkg/workload"
)

func toUnstructured(t *testing.T, obj runtime.Object, apiVersion, kind string) *unstructured.Unstructured {
	t.Helper()
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{Object: m}
	u.SetAPIVersion(apiVersion)
	u.SetKind(kind)
	return u
}

// sameStatusAndHealth checks that mco's status and health rules read the
// same from a slim copy as from the whole object.
func sameStatusAndHealth(t *testing.T, whole, slim *unstructured.Unstructured) {
	t.Helper()
	wantStatus, err := workload.ReflectStatus(whole)
	if err != nil {
		t.Fatal(err)
	}
	gotStatus, err := workload.ReflectStatus(slim)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(wantStatus, gotStatus) {
		t.Errorf("reflected status %s, want %s", gotStatus.Raw, wantStatus.Raw)
	}
	if want, got := workload.Health(whole), workload.Health(slim); want != got {
		t.Errorf("health %s, want %s", got, want)
	}
}

// TestSlimAppliedKeepsWhatMCOReads: the member informers' transform drops
// the left-out fields, and mco's own status and health rules read the
// same from the slim copy as from the whole object.
func TestSlimAppliedKeepsWhatMCOReads(t *testing.T) {
	three, partition := int32(3), int32(1)
	meta := metav1.ObjectMeta{Name: "app", Namespace: "ns", Generation: 4,
		Annotations:   map[string]string{"resourcetemplate.karmada.io/generation": "2"},
		ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "mco"}}}
	pod := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "x"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}}}
	tests := []struct {
		name    string
		obj     *unstructured.Unstructured
		dropped [][]string
	}{
		{"Deployment", toUnstructured(t, &appsv1.Deployment{ObjectMeta: meta,
			Spec:   appsv1.DeploymentSpec{Replicas: &three, Template: pod},
			Status: appsv1.DeploymentStatus{ObservedGeneration: 4, Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 3, ReadyReplicas: 3}},
			"apps/v1", "Deployment"), [][]string{{"spec", "template"}}},
		{"StatefulSet with a partition", toUnstructured(t, &appsv1.StatefulSet{ObjectMeta: meta,
			Spec: appsv1.StatefulSetSpec{Replicas: &three, Template: pod,
				UpdateStrategy:       appsv1.StatefulSetUpdateStrategy{RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: &partition}},
				VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data"}}}},
			Status: appsv1.StatefulSetStatus{ObservedGeneration: 4, Replicas: 3, UpdatedReplicas: 2, AvailableReplicas: 3}},
			"apps/v1", "StatefulSet"), [][]string{{"spec", "template"}, {"spec", "volumeClaimTemplates"}}},
		{"DaemonSet", toUnstructured(t, &appsv1.DaemonSet{ObjectMeta: meta, Spec: appsv1.DaemonSetSpec{Template: pod},
			Status: appsv1.DaemonSetStatus{ObservedGeneration: 3, DesiredNumberScheduled: 2, UpdatedNumberScheduled: 1}},
			"apps/v1", "DaemonSet"), [][]string{{"spec", "template"}}},
		{"Job", toUnstructured(t, &batchv1.Job{ObjectMeta: meta, Spec: batchv1.JobSpec{Template: pod},
			Status: batchv1.JobStatus{Succeeded: 1, Conditions: []batchv1.JobCondition{{Type: batchv1.JobComplete, Status: corev1.ConditionTrue}}}},
			"batch/v1", "Job"), [][]string{{"spec", "template"}}},
		{"ConfigMap", toUnstructured(t, &corev1.ConfigMap{ObjectMeta: meta, Data: map[string]string{"k": "v"},
			BinaryData: map[string][]byte{"b": {1}}}, "v1", "ConfigMap"), [][]string{{"data"}, {"binaryData"}}},
		{"Secret", toUnstructured(t, &corev1.Secret{ObjectMeta: meta, Data: map[string][]byte{"k": []byte("v")}},
			"v1", "Secret"), [][]string{{"data"}}},
		{"a custom kind stays whole", &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "example.io/v1", "kind": "Deployment", "metadata": map[string]any{"name": "app"},
			"spec": map[string]any{"template": map[string]any{"x": "y"}}, "data": map[string]any{"k": "v"}}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := slimApplied(tt.obj.DeepCopy())
			if err != nil {
				t.Fatal(err)
			}
			slim, err := out.(*Copy).Object()
			if err != nil {
				t.Fatal(err)
			}
			if len(slim.GetManagedFields()) > 0 {
				t.Error("managedFields kept")
			}
			for _, path := range tt.dropped {
				if _, found, _ := unstructured.NestedFieldNoCopy(slim.Object, path...); found {
					t.Errorf("%v kept", path)
				}
			}
			if tt.dropped == nil {
				whole := tt.obj.DeepCopy()
				whole.SetManagedFields(nil)
				if !reflect.DeepEqual(whole.Object, slim.Object) {
					t.Errorf("changed: %v", slim.Object)
				}
			}
			sameStatusAndHealth(t, tt.obj, slim)
		})
	}
}

// TestSlimAppliedTyped: the protobuf informers' transform keeps a built-in
// object as the Copy of its JSON without managedFields and with its kind's
// left-out fields emptied, everything else as it was; mco's status and
// health rules read from it what they read from the whole object. Every
// kind leftOut names is emptied.
func TestSlimAppliedTyped(t *testing.T) {
	three := int32(3)
	meta := metav1.ObjectMeta{Name: "app", Namespace: "ns", Generation: 4, ResourceVersion: "9",
		Labels:        map[string]string{"work.karmada.io/permanent-id": "p"},
		Annotations:   map[string]string{"resourcetemplate.karmada.io/generation": "2"},
		ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "mco"}}}
	pod := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "x"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}}}
	tests := []struct {
		obj     runtime.Object
		gvk     schema.GroupVersionKind
		leftOut bool
		emptied runtime.Object // obj as the copy keeps it
	}{
		{&appsv1.Deployment{ObjectMeta: meta, Spec: appsv1.DeploymentSpec{Replicas: &three, Template: pod},
			Status: appsv1.DeploymentStatus{ObservedGeneration: 4, Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 3, ReadyReplicas: 3}},
			appsv1.SchemeGroupVersion.WithKind("Deployment"), true,
			&appsv1.Deployment{ObjectMeta: meta, Spec: appsv1.DeploymentSpec{Replicas: &three},
				Status: appsv1.DeploymentStatus{ObservedGeneration: 4, Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 3, ReadyReplicas: 3}}},
		{&appsv1.ReplicaSet{ObjectMeta: meta, Spec: appsv1.ReplicaSetSpec{Replicas: &three, Template: pod},
			Status: appsv1.ReplicaSetStatus{Replicas: 3, ReadyReplicas: 2}},
			appsv1.SchemeGroupVersion.WithKind("ReplicaSet"), true,
			&appsv1.ReplicaSet{ObjectMeta: meta, Spec: appsv1.ReplicaSetSpec{Replicas: &three}, Status: appsv1.ReplicaSetStatus{Replicas: 3, ReadyReplicas: 2}}},
		{&appsv1.StatefulSet{ObjectMeta: meta, Spec: appsv1.StatefulSetSpec{Replicas: &three, Template: pod,
			VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data"}}}},
			Status: appsv1.StatefulSetStatus{ObservedGeneration: 4, Replicas: 3, UpdatedReplicas: 2, AvailableReplicas: 3}},
			appsv1.SchemeGroupVersion.WithKind("StatefulSet"), true,
			&appsv1.StatefulSet{ObjectMeta: meta, Spec: appsv1.StatefulSetSpec{Replicas: &three},
				Status: appsv1.StatefulSetStatus{ObservedGeneration: 4, Replicas: 3, UpdatedReplicas: 2, AvailableReplicas: 3}}},
		{&appsv1.DaemonSet{ObjectMeta: meta, Spec: appsv1.DaemonSetSpec{Template: pod},
			Status: appsv1.DaemonSetStatus{ObservedGeneration: 3, DesiredNumberScheduled: 2, UpdatedNumberScheduled: 1}},
			appsv1.SchemeGroupVersion.WithKind("DaemonSet"), true,
			&appsv1.DaemonSet{ObjectMeta: meta, Status: appsv1.DaemonSetStatus{ObservedGeneration: 3, DesiredNumberScheduled: 2, UpdatedNumberScheduled: 1}}},
		{&batchv1.Job{ObjectMeta: meta, Spec: batchv1.JobSpec{Template: pod},
			Status: batchv1.JobStatus{Succeeded: 1, Conditions: []batchv1.JobCondition{{Type: batchv1.JobComplete, Status: corev1.ConditionTrue}}}},
			batchv1.SchemeGroupVersion.WithKind("Job"), true,
			&batchv1.Job{ObjectMeta: meta, Status: batchv1.JobStatus{Succeeded: 1, Conditions: []batchv1.JobCondition{{Type: batchv1.JobComplete, Status: corev1.ConditionTrue}}}}},
		{&batchv1.CronJob{ObjectMeta: meta, Spec: batchv1.CronJobSpec{Schedule: "@hourly", JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: pod}}}},
			batchv1.SchemeGroupVersion.WithKind("CronJob"), true,
			&batchv1.CronJob{ObjectMeta: meta, Spec: batchv1.CronJobSpec{Schedule: "@hourly"}}},
		{&corev1.ConfigMap{ObjectMeta: meta, Data: map[string]string{"k": "v"}, BinaryData: map[string][]byte{"b": {1}}},
			corev1.SchemeGroupVersion.WithKind("ConfigMap"), true, &corev1.ConfigMap{ObjectMeta: meta}},
		{&corev1.Secret{ObjectMeta: meta, Data: map[string][]byte{"k": []byte("v")}, StringData: map[string]string{"s": "t"}, Type: corev1.SecretTypeOpaque},
			corev1.SchemeGroupVersion.WithKind("Secret"), true, &corev1.Secret{ObjectMeta: meta, Type: corev1.SecretTypeOpaque}},
		{&corev1.Service{ObjectMeta: meta, Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80}}},
			Status: corev1.ServiceStatus{LoadBalancer: corev1.LoadBalancerStatus{Ingress: []corev1.LoadBalancerIngress{{IP: "10.0.0.1"}}}}},
			corev1.SchemeGroupVersion.WithKind("Service"), false,
			&corev1.Service{ObjectMeta: meta, Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80}}},
				Status: corev1.ServiceStatus{LoadBalancer: corev1.LoadBalancerStatus{Ingress: []corev1.LoadBalancerIngress{{IP: "10.0.0.1"}}}}}},
	}
	emptiedKinds := map[schema.GroupKind]bool{}
	for _, tt := range tests {
		t.Run(tt.gvk.Kind, func(t *testing.T) {
			if tt.leftOut {
				emptiedKinds[tt.gvk.GroupKind()] = true
			}
			whole := toUnstructured(t, tt.obj, tt.gvk.GroupVersion().String(), tt.gvk.Kind)
			out, err := slimAppliedTyped(tt.gvk)(tt.obj.DeepCopyObject())
			if err != nil {
				t.Fatal(err)
			}
			c, ok := out.(*Copy)
			if !ok {
				t.Fatalf("transform gave %T, want a Copy", out)
			}
			if key, _ := cache.MetaNamespaceKeyFunc(c); key != "ns/app" || c.GroupVersionKind() != tt.gvk || c.GetGeneration() != 4 ||
				c.GetLabels()["work.karmada.io/permanent-id"] != "p" {
				t.Errorf("metadata: key %q, %s, %+v", key, c.GroupVersionKind(), c.ObjectMeta)
			}
			slim, err := c.Object()
			if err != nil {
				t.Fatal(err)
			}
			if len(slim.GetManagedFields()) > 0 {
				t.Error("managedFields kept")
			}
			kept, err := scheme.Scheme.New(tt.gvk)
			if err != nil {
				t.Fatal(err)
			}
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(slim.Object, kept); err != nil {
				t.Fatal(err)
			}
			want := tt.emptied.DeepCopyObject()
			want.GetObjectKind().SetGroupVersionKind(tt.gvk)
			wantMeta, _ := apimeta.Accessor(want)
			wantMeta.SetManagedFields(nil)
			if !apiequality.Semantic.DeepEqual(kept, want) {
				t.Errorf("kept %#v\nwant %#v", kept, want)
			}
			sameStatusAndHealth(t, whole, slim)
		})
	}
	for gk := range leftOut {
		if !emptiedKinds[gk] {
			t.Errorf("%s: left-out fields not tested for protobuf-watched objects", gk)
		}
	}
}
