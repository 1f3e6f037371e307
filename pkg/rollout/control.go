package rollout

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
)

// The controls users steer a staged rollout with, shared by kubectl mco
// rollout and the dashboard so both do exactly the same.

// PolicyWave is what the controls need of a wave of the rollout's policy.
type PolicyWave struct {
	Name string
	// Pause: the rollout waits for a resume once the wave has passed.
	Pause bool
}

// Pause holds the rollout: no cluster gets a new revision until resumed.
func Pause(ro *rolloutv1alpha1.Rollout, _ []PolicyWave) (string, error) {
	if ro.Spec.Paused {
		return "already paused", nil
	}
	ro.Spec.Paused = true
	return "paused", nil
}

// Resume clears a pause and releases the current revision: up to and
// including toWave when given, else past the next pause. Paused after a
// wave, the next wave starts; after a failure, the failed wave is tried
// again; with a wave under way (a resume given early, while the wave
// marked pause still rolls out or soaks), the release waits there and
// lets the rollout go on past that wave's pause when it passes. The
// release belongs to the current revision: a newer one rolls out on its
// own. It says what will happen.
func Resume(ro *rolloutv1alpha1.Rollout, waves []PolicyWave, toWave string) (string, error) {
	st := &ro.Status
	names := make([]string, len(waves))
	for i, w := range waves {
		names[i] = w.Name
	}
	i := int(st.WaveIndex)
	release := func(through, did string) (string, error) {
		ro.Spec.Paused = false
		ro.Spec.Release = &rolloutv1alpha1.WaveRelease{Revision: st.CurrentRevision, ThroughWave: through, Time: metav1.Now()}
		return did, nil
	}
	switch {
	case toWave != "" && !slices.Contains(names, toWave):
		return "", fmt.Errorf("the policy has no wave %q (waves: %s)", toWave, strings.Join(names, ", "))
	case toWave != "" && slices.Index(names, toWave) < i:
		return "", fmt.Errorf("wave %s has started already", toWave)
	case toWave != "":
		return release(toWave, fmt.Sprintf("resumed: the waves up to %s start without pausing", toWave))
	case len(waves) == 0:
		return "", fmt.Errorf("the rollout's policy has no waves")
	case i >= len(waves):
		return release(names[len(names)-1], "resumed; every wave has passed")
	case meta.IsStatusConditionTrue(st.Conditions, rolloutv1alpha1.ConditionFailed):
		return release(names[i], fmt.Sprintf("resumed: wave %s is tried again", names[i]))
	case st.WaveStartTime == nil && i > 0:
		return release(names[i], fmt.Sprintf("resumed through wave %s: wave %s starts", names[i-1], names[i]))
	case st.WaveStartTime == nil:
		return release(names[i], fmt.Sprintf("resumed: wave %s starts", names[i]))
	}
	// A wave is under way: release the next pause ahead of it.
	for j := i; j+1 < len(waves); j++ {
		if waves[j].Pause {
			return release(names[j+1], fmt.Sprintf("%s is still under way; the rollout will go on past it without pausing", names[j]))
		}
	}
	return release(names[len(names)-1], fmt.Sprintf("resumed; wave %s goes on and no pause lies ahead", names[i]))
}

// Change reads a Rollout, applies edit (which gets the waves of the
// rollout's policy) and writes it, again on conflicts; it returns what
// edit says it did. Nothing is written when edit changed neither the
// pause nor a release.
func Change(ctx context.Context, mco mcoclient.Interface, namespace, name string,
	edit func(*rolloutv1alpha1.Rollout, []PolicyWave) (string, error)) (string, error) {
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
func PolicyWaves(ctx context.Context, mco mcoclient.Interface, ro *rolloutv1alpha1.Rollout) ([]PolicyWave, error) {
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
	out := make([]PolicyWave, len(spec.Waves))
	for i, w := range spec.Waves {
		out[i] = PolicyWave{Name: w.Name, Pause: w.Pause}
	}
	return out, nil
}
