package satoken

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

func TestGetServiceAccount(t *testing.T) {
	sa := func(name string) *corev1.ServiceAccount {
		return &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: "karmada-cluster", Name: name, UID: types.UID("uid-" + name)}}
	}
	tests := []struct {
		name          string
		cached, live  []*corev1.ServiceAccount
		wantFound     bool
		wantLiveReads int
	}{
		{name: "a cached ServiceAccount is read from the cache", cached: []*corev1.ServiceAccount{sa("agent")}, live: []*corev1.ServiceAccount{sa("agent")}, wantFound: true},
		{name: "a cache not filled yet falls back to the server", live: []*corev1.ServiceAccount{sa("agent")}, wantFound: true, wantLiveReads: 1},
		{name: "a ServiceAccount gone from both is not found", wantLiveReads: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
			for _, s := range tt.cached {
				if err := indexer.Add(s); err != nil {
					t.Fatal(err)
				}
			}
			client := fake.NewClientset()
			for _, s := range tt.live {
				if _, err := client.CoreV1().ServiceAccounts(s.Namespace).Create(context.Background(), s, metav1.CreateOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			client.ClearActions()
			g := tokenGetter{serviceAccounts: corelisters.NewServiceAccountLister(indexer), client: client}
			got, err := g.GetServiceAccount(context.Background(), "karmada-cluster", "agent")
			switch {
			case tt.wantFound && (err != nil || got.Name != "agent"):
				t.Errorf("got %v, %v; want the ServiceAccount", got, err)
			case !tt.wantFound && !apierrors.IsNotFound(err):
				t.Errorf("got %v, %v; want NotFound", got, err)
			}
			if n := len(client.Actions()); n != tt.wantLiveReads {
				t.Errorf("%d reads of the server, want %d", n, tt.wantLiveReads)
			}
		})
	}
}
