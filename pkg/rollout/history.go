package rollout

import (
	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
)

// history returns the history entry of a revision, moved to the front
// (the history is newest first, by when a revision became current).
func (d *decider) history(rev int64) *rolloutv1alpha1.RevisionHistory {
	h := &d.st.History
	for i := range *h {
		if (*h)[i].Revision == rev {
			e := (*h)[i]
			copy((*h)[1:i+1], (*h)[:i])
			(*h)[0] = e
			return &(*h)[0]
		}
	}
	e := rolloutv1alpha1.RevisionHistory{Revision: rev, CreationTime: d.now}
	if rev == d.in.Target {
		e.ChangeCause = d.in.ChangeCause
	}
	*h = append([]rolloutv1alpha1.RevisionHistory{e}, *h...)
	return &(*h)[0]
}

// findRecord is a cluster's record of a revision, nil when there is none.
func (d *decider) findRecord(rev int64, cluster string) *rolloutv1alpha1.ClusterRecord {
	for i := range d.st.History {
		if h := &d.st.History[i]; h.Revision == rev {
			for j := range h.Clusters {
				if h.Clusters[j].Name == cluster {
					return &h.Clusters[j]
				}
			}
		}
	}
	return nil
}

// record is a cluster's record of a revision, made when missing (the
// revision's entry too, behind the current one).
func (d *decider) record(rev int64, cluster string) *rolloutv1alpha1.ClusterRecord {
	if r := d.findRecord(rev, cluster); r != nil {
		return r
	}
	var h *rolloutv1alpha1.RevisionHistory
	for i := range d.st.History {
		if d.st.History[i].Revision == rev {
			h = &d.st.History[i]
		}
	}
	if h == nil {
		d.st.History = append(d.st.History, rolloutv1alpha1.RevisionHistory{Revision: rev, CreationTime: d.now})
		h = &d.st.History[len(d.st.History)-1]
	}
	h.Clusters = append(h.Clusters, rolloutv1alpha1.ClusterRecord{Name: cluster, Result: rolloutv1alpha1.ResultPending})
	return &h.Clusters[len(h.Clusters)-1]
}

// pruneHistory keeps the current revision and HistoryLimit earlier ones,
// and any revision a cluster is still given.
func (d *decider) pruneHistory() {
	inUse := map[int64]bool{d.st.CurrentRevision: true, d.st.StableRevision: true}
	for _, c := range d.st.Clusters {
		inUse[c.Revision] = true
	}
	var kept []rolloutv1alpha1.RevisionHistory
	for i, h := range d.st.History {
		if i <= d.in.HistoryLimit || inUse[h.Revision] {
			kept = append(kept, h)
		}
	}
	d.st.History = kept
}

// InUse are the revisions a status still refers to; their
// ControllerRevisions must be kept, the others may go.
func InUse(st *rolloutv1alpha1.RolloutStatus) map[int64]bool {
	out := map[int64]bool{st.CurrentRevision: true, st.StableRevision: true}
	for _, h := range st.History {
		out[h.Revision] = true
	}
	for _, c := range st.Clusters {
		out[c.Revision] = true
	}
	return out
}
