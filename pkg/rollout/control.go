package rollout

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
)

// The controls users steer a staged rollout with, shared by kubectl mco
// rollout and the dashboard so both do exactly the same; pkg/rolloutops
// reads and writes the Rollout around them.

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
// own. now stamps the release. It says what will happen.
func Resume(ro *rolloutv1alpha1.Rollout, waves []PolicyWave, toWave string, now time.Time) (string, error) {
	st := &ro.Status
	names := make([]string, len(waves))
	for i, w := range waves {
		names[i] = w.Name
	}
	i := int(st.WaveIndex)
	release := func(through, did string) (string, error) {
		ro.Spec.Paused = false
		ro.Spec.Release = &rolloutv1alpha1.WaveRelease{Revision: st.CurrentRevision, ThroughWave: through, Time: metav1.NewTime(now)}
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
