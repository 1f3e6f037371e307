package rolloutops

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/rollout"
)

// Change reads a Rollout, applies edit (which gets the waves of the
// rollout's policy) and writes it, again on conflicts; it returns what
// edit says it did. Nothing is written when edit changed neither the
// pause nor a release.
func Change(ctx context.Context, mco mcoclient.Interface, namespace, name string,
	edit func(*rolloutv1alpha1.Rollout, []rollout.PolicyWave) (string, error)) (string, error) {
	var did string
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		ro, err := mco.RolloutV1alpha1().Rollouts(namespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		waves, err := PolicyWaves(ctx, mco, ro)
		if err != nil {
			return err
		}
		before := ro.Spec.DeepCopy()
		if did, err = edit(ro, waves); err != nil {
			return err
		}
		if before.Paused == ro.Spec.Paused && before.Release == nil && ro.Spec.Release == nil {
			return nil
		}
		_, err = mco.RolloutV1alpha1().Rollouts(ro.Namespace).Update(ctx, ro, metav1.UpdateOptions{})
		return err
	})
	return did, err
}

// PolicyWaves lists the waves of the policy governing the rollout.
func PolicyWaves(ctx context.Context, mco mcoclient.Interface, ro *rolloutv1alpha1.Rollout) ([]rollout.PolicyWave, error) {
	var spec *rolloutv1alpha1.RolloutPolicySpec
	p := ro.Status.Policy
	switch p.Kind {
	case rolloutv1alpha1.ResourceKindRolloutPolicy:
		rp, err := mco.RolloutV1alpha1().RolloutPolicies(p.Namespace).Get(ctx, p.Name, metav1.GetOptions{})
		if err != nil {
			return nil, fmt.Errorf("get RolloutPolicy %s/%s: %w", p.Namespace, p.Name, err)
		}
		spec = &rp.Spec
	case rolloutv1alpha1.ResourceKindClusterRolloutPolicy:
		crp, err := mco.RolloutV1alpha1().ClusterRolloutPolicies().Get(ctx, p.Name, metav1.GetOptions{})
		if err != nil {
			return nil, fmt.Errorf("get ClusterRolloutPolicy %s: %w", p.Name, err)
		}
		spec = &crp.Spec
	default:
		return nil, fmt.Errorf("rollout %s/%s names no policy yet", ro.Namespace, ro.Name)
	}
	out := make([]rollout.PolicyWave, len(spec.Waves))
	for i, w := range spec.Waves {
		out[i] = rollout.PolicyWave{Name: w.Name, Pause: w.Pause}
	}
	return out, nil
}
