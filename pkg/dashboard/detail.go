package dashboard

import (
	"context"
	"io"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/pkg/scheduler/plan"
)

// ClusterPart is one cluster on a workload's page: placed there (with
// its replicas and what the member reports) or left out (and why).
type ClusterPart struct {
	Cluster  string
	Placed   bool
	Replicas int32
	Applied  Health
	Health   Health
	// Reason is why the scheduler leaves the cluster out, and Plugin the
	// filter that says so (empty when division or spread did).
	Reason, Plugin string
	// Evicting: a failover is moving the workload off this cluster.
	Evicting string
}

// EventRow is one Event of the workload.
type EventRow struct {
	Type, Reason, Message, Age string
	Count                      int32
}

// WorkloadPage is the view model of one workload's page.
type WorkloadPage struct {
	Row        WorkloadRow
	Parts      []ClusterPart
	Conditions []metav1.Condition
	Events     []EventRow
	// EventsError says why Events could not be read.
	EventsError string
	// ExplainError says why the scheduler's reasons are missing.
	ExplainError string
}

// workloadPage builds a workload's page: per cluster, its part or why it
// has none (the scheduler's own filters, as kubectl mco preview explains
// them), the binding's conditions and the template's recent Events.
func workloadPage(ctx context.Context, s *Snapshot, b *Binding, events []corev1.Event, eventsErr error) WorkloadPage {
	p := WorkloadPage{Row: workloadRow(b), Conditions: b.Status.Conditions}
	evicting := map[string]string{}
	for _, e := range b.Spec.GracefulEvictionTasks {
		evicting[e.FromCluster] = strings.TrimSpace(e.Reason + " " + e.Message)
	}
	reported := map[string]int{}
	for i, a := range b.Status.AggregatedStatus {
		reported[a.ClusterName] = i
	}
	placed := map[string]bool{}
	for _, t := range b.Spec.Clusters {
		part := ClusterPart{Cluster: t.Name, Placed: true, Replicas: t.Replicas, Evicting: evicting[t.Name],
			Applied: Health{State: "Unknown", Reason: "NoStatus", Message: "the member has not reported"}, Health: Health{State: "Unknown"}}
		if i, ok := reported[t.Name]; ok {
			a := b.Status.AggregatedStatus[i]
			part.Applied = Health{State: "Applied", Reason: "Applied", Message: "applied in the member"}
			if !a.Applied {
				part.Applied = Health{State: "NotApplied", Reason: "ApplyFailed", Message: a.AppliedMessage}
			}
			part.Health = Health{State: string(a.Health), Reason: string(a.Health)}
			if a.Health == "" {
				part.Health.State = "Unknown"
			}
		}
		placed[t.Name] = true
		p.Parts = append(p.Parts, part)
	}
	if b.Object != nil && len(s.Clusters) > 0 {
		res, err := plan.Schedule(ctx, s.Clusters, []plan.Document{{Source: "mco", Object: b.Object}}, io.Discard)
		switch {
		case res != nil:
			for _, e := range res.Excluded {
				if !placed[e.Cluster] {
					p.Parts = append(p.Parts, ClusterPart{Cluster: e.Cluster, Reason: e.Reason, Plugin: e.Plugin, Evicting: evicting[e.Cluster]})
					placed[e.Cluster] = true
				}
			}
		case err != nil:
			p.ExplainError = err.Error()
		}
	}
	for _, c := range s.Clusters {
		if !placed[c.Name] {
			p.Parts = append(p.Parts, ClusterPart{Cluster: c.Name, Reason: "not chosen (the scheduler's reasons are unavailable)"})
		}
	}
	sort.SliceStable(p.Parts, func(i, j int) bool {
		if p.Parts[i].Placed != p.Parts[j].Placed {
			return p.Parts[i].Placed
		}
		return p.Parts[i].Cluster < p.Parts[j].Cluster
	})
	if eventsErr != nil {
		p.EventsError = eventsErr.Error()
	}
	for _, e := range events {
		p.Events = append(p.Events, EventRow{Type: e.Type, Reason: e.Reason, Message: e.Message, Count: max(e.Count, 1),
			Age: ageOf(eventTime(&e))})
	}
	return p
}
