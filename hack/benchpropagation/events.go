package main

import (
	"context"
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// eventCheck is how many Deployments lack an Event a user reads with
// `kubectl describe`: the policy that matched, the schedule, and the Works
// written, naming every member.
type eventCheck struct {
	checked int
	lacking []string // "name: what", a few
	missing int      // Deployments lacking one or more
}

// checkEvents lists the Events of the benchmark's Deployments on mco.
func (b *bench) checkEvents(ctx context.Context, names []string) (eventCheck, error) {
	list, err := b.kube.CoreV1().Events(b.o.benchSpace).List(ctx, metav1.ListOptions{FieldSelector: "involvedObject.kind=Deployment"})
	if err != nil {
		return eventCheck{}, fmt.Errorf("list Events: %w", err)
	}
	seen := map[string]map[string]bool{}
	for _, e := range list.Items {
		if seen[e.InvolvedObject.Name] == nil {
			seen[e.InvolvedObject.Name] = map[string]bool{}
		}
		seen[e.InvolvedObject.Name][e.Reason] = true
		if _, list, ok := strings.Cut(e.Message, "Wrote the works of clusters "); ok && e.Reason == "SyncSucceed" {
			for _, m := range strings.Split(list, ", ") {
				seen[e.InvolvedObject.Name]["SyncSucceed for "+m] = true
			}
		}
	}
	want := []string{"ApplyPolicySucceed", "ScheduleBindingSucceed"}
	for _, m := range b.names {
		want = append(want, "SyncSucceed for "+m)
	}
	c := eventCheck{checked: len(names)}
	for _, name := range names {
		var lacks []string
		for _, w := range want {
			if !seen[name][w] {
				lacks = append(lacks, w)
			}
		}
		if len(lacks) > 0 {
			c.missing++
			if len(c.lacking) < 3 {
				c.lacking = append(c.lacking, name+": "+strings.Join(lacks, ", "))
			}
		}
	}
	return c, nil
}

func (c eventCheck) String() string {
	if c.missing == 0 {
		return fmt.Sprintf("each of the %d Deployments has its Events (policy matched, scheduled, works written for each cluster)", c.checked)
	}
	return fmt.Sprintf("%d of %d Deployments lack Events, e.g. %s", c.missing, c.checked, strings.Join(c.lacking, "; "))
}
