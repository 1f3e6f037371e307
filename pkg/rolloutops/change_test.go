package rolloutops

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stesting "k8s.io/client-go/testing"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	mcofake "github.com/mco-org/mco/pkg/generated/clientset/versioned/fake"
	"github.com/mco-org/mco/pkg/rollout"
)

func TestChange(t *testing.T) {
	policy := &rolloutv1alpha1.RolloutPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "staged"},
		Spec: rolloutv1alpha1.RolloutPolicySpec{Waves: []rolloutv1alpha1.Wave{{Name: "canary", Pause: true}, {Name: "rest", Rest: true}}}}
	governed := func(paused bool) *rolloutv1alpha1.Rollout {
		ro := staged()
		ro.Spec.Paused = paused
		ro.Status.Policy = rolloutv1alpha1.PolicyReference{Kind: rolloutv1alpha1.ResourceKindRolloutPolicy, Namespace: "shop", Name: "staged"}
		return ro
	}
	resume := func(ro *rolloutv1alpha1.Rollout, waves []rollout.PolicyWave) (string, error) {
		return rollout.Resume(ro, waves, "", time.Now())
	}
	tests := []struct {
		name       string
		objects    []runtime.Object
		edit       func(*rolloutv1alpha1.Rollout, []rollout.PolicyWave) (string, error)
		wantSays   string
		wantErr    string
		wantPaused bool
		wantWrites int
	}{
		{name: "a pause is written", objects: []runtime.Object{governed(false), policy}, edit: rollout.Pause,
			wantSays: "paused", wantPaused: true, wantWrites: 1},
		{name: "a pause of a paused rollout writes nothing", objects: []runtime.Object{governed(true), policy}, edit: rollout.Pause,
			wantSays: "already paused", wantPaused: true},
		{name: "a resume gets the policy's waves", objects: []runtime.Object{governed(true), policy}, edit: resume,
			wantSays: "wave canary starts", wantWrites: 1},
		{name: "a rollout whose policy is gone is refused", objects: []runtime.Object{governed(true)}, edit: resume,
			wantErr: "get RolloutPolicy shop/staged", wantPaused: true},
		{name: "a rollout that names no policy yet is refused", objects: []runtime.Object{staged()}, edit: resume,
			wantErr: "names no policy yet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			mco := mcofake.NewSimpleClientset(tt.objects...)
			writes := 0
			mco.PrependReactor("update", "rollouts", func(k8stesting.Action) (bool, runtime.Object, error) {
				writes++
				return false, nil, nil
			})
			says, err := Change(ctx, mco, "shop", "settings-configmap", tt.edit)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("err %v, want %q", err, tt.wantErr)
			}
			if !strings.Contains(says, tt.wantSays) {
				t.Errorf("says %q, want %q", says, tt.wantSays)
			}
			live, err := mco.RolloutV1alpha1().Rollouts("shop").Get(ctx, "settings-configmap", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if live.Spec.Paused != tt.wantPaused || writes != tt.wantWrites {
				t.Errorf("paused %v after %d writes, want %v after %d", live.Spec.Paused, writes, tt.wantPaused, tt.wantWrites)
			}
		})
	}
}
