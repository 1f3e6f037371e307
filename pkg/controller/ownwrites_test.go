package controller

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
)

func TestOwnWrites(t *testing.T) {
	t.Parallel()
	cm := func(rv string) *corev1.ConfigMap {
		return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "cm", ResourceVersion: rv}}
	}
	tests := []struct {
		name    string
		cached  string // the informer's version; "" when it has none
		written string // the version our write returned; "" when none
		want    string // "" for not found
	}{
		{name: "neither", want: ""},
		{name: "only the informer", cached: "5", want: "5"},
		{name: "created, the informer has not seen it yet", written: "5", want: "5"},
		{name: "updated, the informer lags", cached: "3", written: "5", want: "5"},
		{name: "the informer caught up", cached: "5", written: "5", want: "5"},
		{name: "the informer is past our write", cached: "7", written: "5", want: "7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			inf := cache.NewSharedIndexInformer(&cache.ListWatch{}, &corev1.ConfigMap{}, 0, cache.Indexers{})
			own, err := NewOwnWrites(inf, 10)
			if err != nil {
				t.Fatal(err)
			}
			if tt.cached != "" {
				if err := inf.GetStore().Add(cm(tt.cached)); err != nil {
					t.Fatal(err)
				}
			}
			if tt.written != "" {
				own.Wrote(cm(tt.written))
			}
			obj, ok, err := own.Get("ns", "cm")
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if ok {
				got = obj.(*corev1.ConfigMap).ResourceVersion
			}
			if got != tt.want {
				t.Errorf("got version %q, want %q", got, tt.want)
			}
			// A second read: a created object must still be there.
			typed, err := OwnGet[*corev1.ConfigMap](own, corev1.Resource("configmaps"), "ns", "cm")
			switch {
			case tt.want == "" && !apierrors.IsNotFound(err):
				t.Errorf("OwnGet: got %v, want NotFound", err)
			case tt.want != "" && (err != nil || typed.ResourceVersion != tt.want):
				t.Errorf("OwnGet: got %v, %v, want version %q", typed, err, tt.want)
			}
		})
	}
}
