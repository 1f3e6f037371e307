package dashboard

import (
	"context"
	"sort"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
)

// RolloutRow is one staged rollout on the Rollouts page.
type RolloutRow struct {
	// Namespace and Name are the Rollout record's.
	Namespace, Name      string
	Kind, Template       string
	Current, Stable      int64
	Wave, State, Message string
	Paused               bool
	Clusters             []rolloutv1alpha1.ClusterRevision
	// CanControl: the user may pause and resume it (update Rollouts in
	// its namespace).
	CanControl bool
}

// RolloutsPage is the view model of the Rollouts page.
type RolloutsPage struct {
	Rows []RolloutRow
	// Done is what the last pause or resume did, or its error.
	Done, Failed string
}

// Controller pauses and resumes rollouts as the user, when the source can.
type Controller interface {
	// MayControl tells whether the user may update Rollouts in namespace.
	MayControl(ctx context.Context, namespace string) bool
	// Control pauses or resumes ("pause", "resume") a Rollout and says what
	// it did, as kubectl mco rollout pause|resume does.
	Control(ctx context.Context, namespace, name, action string) (string, error)
}

// rolloutsPage lists the rollouts with their waves and per-cluster
// revisions and health; may says whether the user may steer a namespace's.
func rolloutsPage(s *Snapshot, may func(namespace string) bool) RolloutsPage {
	var p RolloutsPage
	for _, ro := range s.Rollouts {
		r := RolloutRow{Namespace: ro.Namespace, Name: ro.Name, Kind: ro.Spec.Resource.Kind, Template: ro.Spec.Resource.Name,
			Current: ro.Status.CurrentRevision, Stable: ro.Status.StableRevision, Wave: ro.Status.Wave,
			State: ro.Status.State(), Message: ro.Status.StateMessage(), Paused: ro.Spec.Paused, Clusters: ro.Status.Clusters}
		if ns := ro.Spec.Resource.Namespace; ns != "" {
			r.Template = ns + "/" + r.Template
		}
		r.CanControl = may != nil && may(ro.Namespace)
		p.Rows = append(p.Rows, r)
	}
	sort.Slice(p.Rows, func(i, j int) bool {
		if p.Rows[i].Namespace != p.Rows[j].Namespace {
			return p.Rows[i].Namespace < p.Rows[j].Namespace
		}
		return p.Rows[i].Name < p.Rows[j].Name
	})
	return p
}
