package controller

import (
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const ours = "karmada.io/binding-controller"

func TestAddFinalizer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		finalizers  []string
		want        []string
		wantChanged bool
	}{
		{name: "A missing finalizer is added to an object without finalizers.", want: []string{ours}, wantChanged: true},
		{name: "A missing finalizer is added after the others.", finalizers: []string{"other"}, want: []string{"other", ours}, wantChanged: true},
		{name: "A finalizer already there is not added twice.", finalizers: []string{ours, "other"}, want: []string{ours, "other"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := &metav1.ObjectMeta{Finalizers: slices.Clone(tc.finalizers)}
			if got := AddFinalizer(m, ours); got != tc.wantChanged {
				t.Errorf("AddFinalizer = %v, want %v", got, tc.wantChanged)
			}
			if !slices.Equal(m.Finalizers, tc.want) {
				t.Errorf("finalizers = %v, want %v", m.Finalizers, tc.want)
			}
			if !HasFinalizer(m, ours) {
				t.Error("HasFinalizer = false after AddFinalizer")
			}
		})
	}
}

func TestRemoveFinalizer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		finalizers  []string
		want        []string
		wantChanged bool
	}{
		{name: "Removing from an object without finalizers changes nothing."},
		{name: "Removing a finalizer that is not there changes nothing.", finalizers: []string{"other"}, want: []string{"other"}},
		{name: "The only finalizer is removed.", finalizers: []string{ours}, want: []string{}, wantChanged: true},
		{name: "A finalizer between others is removed and the others keep their order.",
			finalizers: []string{"a", ours, "b"}, want: []string{"a", "b"}, wantChanged: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			shared := slices.Clone(tc.finalizers) // as an informer cache would hold it
			m := &metav1.ObjectMeta{Finalizers: shared}
			if got := RemoveFinalizer(m, ours); got != tc.wantChanged {
				t.Errorf("RemoveFinalizer = %v, want %v", got, tc.wantChanged)
			}
			if len(m.Finalizers) != len(tc.want) || !slices.Equal(m.Finalizers, tc.want) {
				t.Errorf("finalizers = %v, want %v", m.Finalizers, tc.want)
			}
			if HasFinalizer(m, ours) {
				t.Error("HasFinalizer = true after RemoveFinalizer")
			}
			if !slices.Equal(shared, tc.finalizers) {
				t.Errorf("the slice the object held became %v, want it untouched as %v", shared, tc.finalizers)
			}
		})
	}
}

func TestHasFinalizer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		finalizers []string
		want       bool
	}{
		{name: "An object without finalizers has none."},
		{name: "An object with other finalizers does not have ours.", finalizers: []string{"other", "karmada.io/binding-controller-x"}},
		{name: "An object listing ours has it.", finalizers: []string{"other", ours}, want: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := HasFinalizer(&metav1.ObjectMeta{Finalizers: tc.finalizers}, ours); got != tc.want {
				t.Errorf("HasFinalizer = %v, want %v", got, tc.want)
			}
		})
	}
}
