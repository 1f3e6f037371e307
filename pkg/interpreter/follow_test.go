package interpreter

import (
	"context"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"

	mcofake "github.com/mco-org/mco/pkg/generated/clientset/versioned/fake"
	mcoinformers "github.com/mco-org/mco/pkg/generated/informers/externalversions"
	"github.com/mco-org/mco/pkg/interpreter/lua"
)

// TestFollowLoadsTheInitialListOnce: the customizations stored at start
// are loaded together once they are all in, not once per customization;
// later changes reload.
func TestFollowLoadsTheInitialListOnce(t *testing.T) {
	const healthy = "function InterpretHealth(obj) return true end"
	var stored []runtime.Object
	for i := range 20 {
		stored = append(stored, customization(fmt.Sprintf("c%02d", i), fmt.Sprintf("Kind%02d", i), healthy))
	}
	client := mcofake.NewSimpleClientset(stored...)
	factory := mcoinformers.NewSharedInformerFactory(client, 0)
	interp := New(lua.NewVM(), nil)
	f, err := Follow(interp, factory.Config().V1alpha1().ResourceInterpreterCustomizations().Informer())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	factory.Start(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), f.HasSynced) {
		t.Fatal("not synced")
	}
	reloads := func() int {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.reloads
	}
	if n, kinds := reloads(), len(interp.Customizations().Kinds()); n != 1 || kinds != 20 {
		t.Fatalf("after the initial list: %d reloads, %d kinds; want 1 reload of 20 kinds", n, kinds)
	}
	if _, err := client.ConfigV1alpha1().ResourceInterpreterCustomizations().Create(ctx,
		customization("c20", "Kind20", healthy), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	err = wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		return len(interp.Customizations().Kinds()) == 21, nil
	})
	if err != nil || reloads() != 2 {
		t.Fatalf("after a create: %d reloads, %d kinds (%v); want 2 reloads of 21 kinds", reloads(), len(interp.Customizations().Kinds()), err)
	}
}
