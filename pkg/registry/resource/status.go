package resource

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// StatusMetadataPolicy says which metadata a write to the status
// subresource may change. Spec changes are always ignored there.
type StatusMetadataPolicy int

const (
	// StatusResetsMetadata keeps the stored labels, annotations, finalizers
	// and owner references, as kube-apiserver does for custom resources.
	StatusResetsMetadata StatusMetadataPolicy = iota
	// StatusResetsLabels keeps the stored labels only, as kube-apiserver
	// does for Deployment.
	StatusResetsLabels
	// StatusAcceptsMetadata lets metadata change with the status, as
	// kube-apiserver does for StatefulSet, DaemonSet, ReplicaSet, Job,
	// Namespace, Service and PersistentVolumeClaim.
	StatusAcceptsMetadata
)

// statusStrategy implements updates through the status subresource.
type statusStrategy struct {
	strategy
}

func (s statusStrategy) PrepareForUpdate(ctx context.Context, obj, old runtime.Object) {
	if k := s.spec.Kube; k != nil && k.Status != nil {
		k.prepareForUpdate(ctx, k.Status, obj, old)
		return
	}
	keepAllButStatus(obj, old)
	newMeta, err1 := meta.Accessor(obj)
	oldMeta, err2 := meta.Accessor(old)
	if err1 != nil || err2 != nil {
		return
	}
	// The generic registry has already kept the stored generation.
	switch s.spec.StatusMetadata {
	case StatusResetsMetadata:
		metav1.ResetObjectMetaForStatus(newMeta, oldMeta)
	case StatusResetsLabels:
		newMeta.SetLabels(oldMeta.GetLabels())
	}
}

// ValidateUpdate checks the status only, so that a status write never fails
// on a rule about the spec it cannot change.
func (s statusStrategy) ValidateUpdate(ctx context.Context, obj, old runtime.Object) field.ErrorList {
	if k := s.spec.Kube; k != nil && k.Status != nil {
		return k.validateUpdate(ctx, k.Status, obj, old)
	}
	if s.spec.ValidateStatus == nil {
		return nil
	}
	return s.spec.ValidateStatus(obj, old)
}

// GetResetFields names the fields the status subresource ignores: the spec
// and the metadata the policy keeps.
// WarningsOnUpdate returns Kubernetes' warnings for a status write.
func (s statusStrategy) WarningsOnUpdate(ctx context.Context, obj, old runtime.Object) []string {
	if k := s.spec.Kube; k != nil && k.Status != nil {
		return k.warningsOnUpdate(ctx, k.Status, obj, old)
	}
	return nil
}

func (s statusStrategy) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	if k := s.spec.Kube; k != nil && k.Status != nil {
		return resetFieldsOf(k.Status)
	}
	paths := []fieldpath.Path{fieldpath.MakePathOrDie("spec")}
	switch s.spec.StatusMetadata {
	case StatusResetsMetadata:
		paths = append(paths, fieldpath.MakePathOrDie("metadata", "labels"), fieldpath.MakePathOrDie("metadata", "annotations"))
	case StatusResetsLabels:
		paths = append(paths, fieldpath.MakePathOrDie("metadata", "labels"))
	}
	return s.resetFields(fieldpath.NewSet(paths...))
}

// keepAllButStatus sets every top-level field of obj except metadata and
// status to old's value.
func keepAllButStatus(obj, old runtime.Object) {
	dst, src := structValue(obj), structValue(old)
	t := dst.Type()
	for i := 0; i < t.NumField(); i++ {
		switch t.Field(i).Name {
		case "TypeMeta", "ObjectMeta", "Status":
			continue
		}
		if dst.Field(i).CanSet() {
			dst.Field(i).Set(src.Field(i))
		}
	}
}
