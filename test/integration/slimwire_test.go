package integration

import (
	"context"
	"testing"
	"time"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/kubeconfig"
	"github.com/mco-org/mco/pkg/slimwire"
	"github.com/mco-org/mco/test/integration/framework"
)

// TestComponentsReadWithoutManagedFields: through the clients mco's
// components use (protobuf, slimwire), a binding written by two managers
// is read, listed and watched from mco-apiserver without its managedFields
// and otherwise as a plain protobuf client reads it; a plain client still
// sees them.
func TestComponentsReadWithoutManagedFields(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	plain, err := mcoclient.NewForConfig(kubeconfig.Protobuf(s.Config))
	if err != nil {
		t.Fatal(err)
	}
	slim, err := mcoclient.NewForConfig(slimwire.ForComponents(kubeconfig.Protobuf(s.Config)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rbs := func(c mcoclient.Interface) func() (*workv1alpha2.ResourceBinding, error) {
		return func() (*workv1alpha2.ResourceBinding, error) {
			return c.WorkV1alpha2().ResourceBindings("default").Get(ctx, "web", metav1.GetOptions{})
		}
	}
	created, err := plain.WorkV1alpha2().ResourceBindings("default").Create(ctx, newBinding("web", 2), metav1.CreateOptions{FieldManager: "first"})
	if err != nil {
		t.Fatal(err)
	}
	w, err := slim.WorkV1alpha2().ResourceBindings("default").Watch(ctx, metav1.ListOptions{ResourceVersion: created.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	created.Spec.Replicas = 3
	if _, err := plain.WorkV1alpha2().ResourceBindings("default").Update(ctx, created, metav1.UpdateOptions{FieldManager: "second"}); err != nil {
		t.Fatal(err)
	}

	want, err := rbs(plain)()
	if err != nil {
		t.Fatal(err)
	}
	if len(want.ManagedFields) != 2 {
		t.Fatalf("a plain client reads managedFields %+v, want two managers'", want.ManagedFields)
	}
	want.ManagedFields = nil
	got, err := rbs(slim)()
	if err != nil {
		t.Fatal(err)
	}
	if !apiequality.Semantic.DeepEqual(got, want) {
		t.Errorf("get:\n%+v\nwant\n%+v", got, want)
	}
	list, err := slim.WorkV1alpha2().ResourceBindings("default").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || !apiequality.Semantic.DeepEqual(&list.Items[0], want) {
		t.Errorf("list: %+v, want the binding without managedFields", list.Items)
	}
	select {
	case ev := <-w.ResultChan():
		b, ok := ev.Object.(*workv1alpha2.ResourceBinding)
		if ev.Type != watch.Modified || !ok || !apiequality.Semantic.DeepEqual(b, want) {
			t.Errorf("watch event %s %+v, want the update without managedFields", ev.Type, ev.Object)
		}
	case <-ctx.Done():
		t.Fatal("no watch event")
	}
}
