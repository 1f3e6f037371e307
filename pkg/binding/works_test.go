package binding

import (
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

func TestWorksOf(t *testing.T) {
	t.Parallel()
	work := func(ns, name string, labels map[string]string) *workv1alpha1.Work {
		return &workv1alpha1.Work{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels}}
	}
	rbLabel, crbLabel := workv1alpha2.ResourceBindingPermanentIDLabel, workv1alpha2.ClusterResourceBindingPermanentIDLabel
	inf := cache.NewSharedIndexInformer(&cache.ListWatch{}, &workv1alpha1.Work{}, 0, cache.Indexers{})
	for range 2 { // asking twice is allowed
		if err := IndexWorks(inf); err != nil {
			t.Fatal(err)
		}
	}
	for _, w := range []*workv1alpha1.Work{
		work("karmada-es-m1", "web-1", map[string]string{rbLabel: "id-1"}),
		work("karmada-es-m2", "web-2", map[string]string{rbLabel: "id-1"}),
		work("karmada-es-m1", "other", map[string]string{rbLabel: "id-2"}),
		work("karmada-es-m1", "cluster-role", map[string]string{crbLabel: "id-1"}),
		work("karmada-es-m1", "unlabelled", nil),
	} {
		if err := inf.GetIndexer().Add(w); err != nil {
			t.Fatal(err)
		}
	}
	view := func(k Key, id string) *View {
		v := New(k)
		v.Meta.Labels = map[string]string{k.PermanentIDLabel(): id}
		return v
	}
	cases := []struct {
		name string
		view *View
		want []string
	}{
		{"A ResourceBinding's Works in every execution space.", view(Key{Namespace: "default", Name: "web"}, "id-1"), []string{"web-1", "web-2"}},
		{"A ClusterResourceBinding's Works carry the other label.", view(Key{Name: "role"}, "id-1"), []string{"cluster-role"}},
		{"A binding with no Works.", view(Key{Namespace: "default", Name: "db"}, "id-3"), nil},
		{"A binding without a permanent id has none.", New(Key{Namespace: "default", Name: "new"}), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			works, err := WorksOf(inf, tc.view)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range works {
				got = append(got, w.Name)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
