package shared

import (
	"testing"

	"k8s.io/apimachinery/pkg/types"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

func TestHeldStatuses(t *testing.T) {
	t.Parallel()
	k := types.NamespacedName{Namespace: "karmada-es-m1", Name: "web"}
	st := &workv1alpha1.WorkStatus{}

	var nilHolder *HeldStatuses
	if nilHolder.Hold(k, 1, st) {
		t.Error("a nil holder held a status")
	}
	h := NewHeldStatuses()
	if h.Hold(k, 1, st) {
		t.Error("held a status with nobody to write it")
	}
	var told []types.NamespacedName
	h.OnHold(func(k types.NamespacedName) { told = append(told, k) })
	if !h.Hold(k, 1, st) || len(told) != 1 {
		t.Fatalf("Hold with a writer: told %v", told)
	}
	first, ok := h.Get(k)
	if !ok || first.Generation != 1 {
		t.Fatalf("Get = %+v, %t", first, ok)
	}
	h.Hold(k, 2, st)
	h.Release(k, first) // written from what it read before the newer hold
	if got, ok := h.Get(k); !ok || got.Generation != 2 {
		t.Errorf("Release of an older read dropped the newer status: %+v, %t", got, ok)
	}
	second, _ := h.Get(k)
	h.Release(k, second)
	if _, ok := h.Get(k); ok {
		t.Error("Release of the current status kept it")
	}
	h.Hold(k, 3, st)
	h.Drop(k)
	if _, ok := h.Get(k); ok {
		t.Error("Drop kept the status")
	}
}
