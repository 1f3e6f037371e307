package clusterstatus

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
	coordinationlisters "k8s.io/client-go/listers/coordination/v1"
	"k8s.io/client-go/tools/cache"
)

// TestRenewLease: the first renewal creates the Lease, later ones move its
// renew time; the cache may lag behind without an error.
func TestRenewLease(t *testing.T) {
	ctx := context.Background()
	kube := fake.NewSimpleClientset()
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	leases := coordinationlisters.NewLeaseLister(indexer)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := renewLease(ctx, kube, leases, "member1", "mco-controller-manager", 40*time.Second, t0); err != nil {
		t.Fatal(err)
	}
	l, err := kube.CoordinationV1().Leases(LeaseNamespace).Get(ctx, "member1", metav1.GetOptions{})
	if err != nil || !l.Spec.RenewTime.Time.Equal(t0) || *l.Spec.LeaseDurationSeconds != 40 {
		t.Fatalf("created lease %+v, %v", l, err)
	}
	// Not in the cache yet: the create is refused and that is fine.
	if err := renewLease(ctx, kube, leases, "member1", "mco-controller-manager", 40*time.Second, t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := indexer.Add(l); err != nil {
		t.Fatal(err)
	}
	if err := renewLease(ctx, kube, leases, "member1", "mco-controller-manager", 40*time.Second, t0.Add(10*time.Second)); err != nil {
		t.Fatal(err)
	}
	l, _ = kube.CoordinationV1().Leases(LeaseNamespace).Get(ctx, "member1", metav1.GetOptions{})
	if !l.Spec.RenewTime.Time.Equal(t0.Add(10 * time.Second)) {
		t.Fatalf("renew time %s", l.Spec.RenewTime)
	}
}
