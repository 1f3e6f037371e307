package resource

import (
	"context"
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// statusWrite is a status update that also tries to change the spec and
// every kind of metadata.
func statusWrite() (obj, old *appsv1.Deployment) {
	old = deployment(3)
	old.Finalizers = []string{"example.com/keep"}
	obj = old.DeepCopy()
	obj.Status.ReadyReplicas = 2
	obj.Spec.Replicas = ptr.To[int32](9)
	obj.Generation = 8
	obj.Labels = map[string]string{"app": "other"}
	obj.Annotations = map[string]string{"team": "b"}
	obj.Finalizers = nil
	return obj, old
}

func TestStatusPrepareForUpdate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name                          string
		policy                        StatusMetadataPolicy
		labels, annotations, finalize bool // whether the write's change sticks
	}{
		{"Custom resources keep all stored metadata.", StatusResetsMetadata, false, false, false},
		{"A Deployment keeps its stored labels but takes other metadata.", StatusResetsLabels, false, true, true},
		{"Other built-in workloads take metadata with the status.", StatusAcceptsMetadata, true, true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := statusStrategy{newStrategy(nil, &Spec{HasStatus: true, StatusMetadata: tc.policy})}
			obj, old := statusWrite()
			sent := obj.DeepCopy()
			st.PrepareForUpdate(context.Background(), obj, old)
			if obj.Status.ReadyReplicas != 2 {
				t.Errorf("status not written: %+v", obj.Status)
			}
			if *obj.Spec.Replicas != 2 {
				t.Errorf("spec.replicas = %d, want the stored 2", *obj.Spec.Replicas)
			}
			check := func(what string, sticks bool, got, stored, written any) {
				want := stored
				if sticks {
					want = written
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s = %v, want %v", what, got, want)
				}
			}
			check("labels", tc.labels, obj.Labels, old.Labels, sent.Labels)
			check("annotations", tc.annotations, obj.Annotations, old.Annotations, sent.Annotations)
			check("finalizers", tc.finalize, obj.Finalizers, old.Finalizers, sent.Finalizers)
		})
	}
}

func TestStatusValidateUpdate(t *testing.T) {
	t.Parallel()
	specRule := func(runtime.Object) field.ErrorList {
		return field.ErrorList{field.Invalid(field.NewPath("spec", "replicas"), 2, "spec rule")}
	}
	statusRule := func(obj, _ runtime.Object) field.ErrorList {
		if obj.(*appsv1.Deployment).Status.ReadyReplicas < 0 {
			return field.ErrorList{field.Invalid(field.NewPath("status", "readyReplicas"), -1, "negative")}
		}
		return nil
	}
	cases := []struct {
		name     string
		validate func(obj, old runtime.Object) field.ErrorList
		ready    int32
		want     []string
	}{
		{"Without a status check any status passes, whatever the spec rules say.", nil, -1, nil},
		{"A valid status passes its check although the spec breaks a rule.", statusRule, 1, nil},
		{"An invalid status is rejected at its field.", statusRule, -1, []string{"status.readyReplicas"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			spec := &Spec{HasStatus: true, Validate: specRule, ValidateStatus: tc.validate,
				ValidateUpdate: func(obj, _ runtime.Object) field.ErrorList { return specRule(obj) }}
			st := statusStrategy{newStrategy(nil, spec)}
			old := deployment(1)
			obj := old.DeepCopy()
			obj.Status.ReadyReplicas = tc.ready
			var got []string
			for _, e := range st.ValidateUpdate(context.Background(), obj, old) {
				got = append(got, e.Field)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("errors at %v, want %v", got, tc.want)
			}
		})
	}
}

func TestStatusResetFields(t *testing.T) {
	t.Parallel()
	path := fieldpath.MakePathOrDie
	cases := []struct {
		name   string
		policy StatusMetadataPolicy
		want   *fieldpath.Set
	}{
		{"Custom resources reset spec, labels and annotations.", StatusResetsMetadata,
			fieldpath.NewSet(path("spec"), path("metadata", "labels"), path("metadata", "annotations"))},
		{"A Deployment resets spec and labels.", StatusResetsLabels,
			fieldpath.NewSet(path("spec"), path("metadata", "labels"))},
		{"Other built-in kinds reset the spec only.", StatusAcceptsMetadata, fieldpath.NewSet(path("spec"))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			spec := &Spec{Resource: schema.GroupResource{Group: "apps", Resource: "deployments"}, Version: "v1",
				HasStatus: true, StatusMetadata: tc.policy}
			got := statusStrategy{newStrategy(nil, spec)}.GetResetFields()["apps/v1"]
			if got == nil || !got.Equals(tc.want) {
				t.Errorf("reset fields = %v, want %v", got, tc.want)
			}
		})
	}
}
