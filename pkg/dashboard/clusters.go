package dashboard

import (
	"fmt"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/duration"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

// ClusterRow is one member on the Clusters page.
type ClusterRow struct {
	Name, Version, Mode, Region string
	Zones                       []string
	Ready                       Health
	Taints                      []string
	NodesReady, NodesTotal      int32
	CPU, Memory                 Usage
	Workloads                   int
	Replicas                    int32
}

// Health is a state shown with a word and a symbol, never a colour alone.
type Health struct {
	// State is Ready, NotReady or Unknown.
	State, Reason, Message string
}

// Symbol is the state's sign: ✓, ✗ or ?.
func (h Health) Symbol() string {
	switch h.State {
	case "Ready", "Healthy", "Applied":
		return "✓"
	case "Unknown", "":
		return "?"
	}
	return "✗"
}

// Class is the CSS class of the state (ok, bad, unknown).
func (h Health) Class() string {
	switch h.Symbol() {
	case "✓":
		return "ok"
	case "✗":
		return "bad"
	}
	return "unknown"
}

// Usage is an amount used of a total, shown as a bar and in words.
type Usage struct {
	Used, Total string
	// Percent is 0 to 100.
	Percent int
}

// RegionGroup is a region on the map-like picture: its zones and clusters.
type RegionGroup struct {
	Region string
	Zones  []ZoneGroup
}

// ZoneGroup is a zone and its clusters with their replica counts.
type ZoneGroup struct {
	Zone     string
	Clusters []ClusterRow
}

// ClustersPage is the view model of the Clusters page.
type ClustersPage struct {
	Rows    []ClusterRow
	Regions []RegionGroup
	Ready   int
}

// clustersPage builds the Clusters page from a snapshot: every member,
// its health, capacity and the workloads it runs, and the members
// grouped by region and zone.
func clustersPage(s *Snapshot) ClustersPage {
	workloads, replicas := perCluster(s.Bindings)
	var p ClustersPage
	for _, c := range s.Clusters {
		row := clusterRow(c)
		row.Workloads, row.Replicas = workloads[c.Name], replicas[c.Name]
		if row.Ready.State == "Ready" {
			p.Ready++
		}
		p.Rows = append(p.Rows, row)
	}
	sort.Slice(p.Rows, func(i, j int) bool { return p.Rows[i].Name < p.Rows[j].Name })
	p.Regions = groupByRegion(p.Rows)
	return p
}

// perCluster counts, per cluster, the workloads placed there and their
// replicas.
func perCluster(bindings []*Binding) (map[string]int, map[string]int32) {
	workloads, replicas := map[string]int{}, map[string]int32{}
	for _, b := range bindings {
		for _, t := range b.Spec.Clusters {
			workloads[t.Name]++
			replicas[t.Name] += t.Replicas
		}
	}
	return workloads, replicas
}

func clusterRow(c *clusterv1alpha1.Cluster) ClusterRow {
	row := ClusterRow{Name: c.Name, Version: c.Status.KubernetesVersion, Mode: string(c.Spec.SyncMode),
		Region: c.Spec.Region, Zones: c.Spec.Zones, Ready: Health{State: "Unknown", Reason: "NoStatus", Message: "no status reported yet"}}
	if len(row.Zones) == 0 && c.Spec.Zone != "" {
		row.Zones = []string{c.Spec.Zone}
	}
	if cond := meta.FindStatusCondition(c.Status.Conditions, clusterv1alpha1.ClusterConditionReady); cond != nil {
		row.Ready = Health{Reason: cond.Reason, Message: cond.Message}
		switch cond.Status {
		case "True":
			row.Ready.State = "Ready"
		case "False":
			row.Ready.State = "NotReady"
		default:
			row.Ready.State = "Unknown"
		}
	}
	for _, t := range c.Spec.Taints {
		row.Taints = append(row.Taints, t.ToString())
	}
	if n := c.Status.NodeSummary; n != nil {
		row.NodesReady, row.NodesTotal = n.ReadyNum, n.TotalNum
	}
	if r := c.Status.ResourceSummary; r != nil {
		row.CPU = usage(r.Allocated[corev1.ResourceCPU], r.Allocatable[corev1.ResourceCPU])
		row.Memory = usage(r.Allocated[corev1.ResourceMemory], r.Allocatable[corev1.ResourceMemory])
	}
	return row
}

// usage renders allocated of allocatable, e.g. "1.5 of 8".
func usage(used, total resource.Quantity) Usage {
	u := Usage{Used: used.String(), Total: total.String()}
	if t := total.MilliValue(); t > 0 {
		u.Percent = int(min(100, used.MilliValue()*100/t))
	}
	return u
}

// String is the usage in words, for screen readers and tooltips.
func (u Usage) String() string {
	if u.Total == "" || u.Total == "0" {
		return "unknown"
	}
	return fmt.Sprintf("%s of %s allocated (%d%%)", u.Used, u.Total, u.Percent)
}

// groupByRegion groups rows by region, then zone (a cluster spanning
// several zones appears in each); a missing region or zone is "-".
func groupByRegion(rows []ClusterRow) []RegionGroup {
	byRegion := map[string]map[string][]ClusterRow{}
	for _, r := range rows {
		region := or(r.Region, "-")
		if byRegion[region] == nil {
			byRegion[region] = map[string][]ClusterRow{}
		}
		zones := r.Zones
		if len(zones) == 0 {
			zones = []string{"-"}
		}
		for _, z := range zones {
			byRegion[region][z] = append(byRegion[region][z], r)
		}
	}
	var out []RegionGroup
	for _, region := range sortedKeys(byRegion) {
		g := RegionGroup{Region: region}
		for _, z := range sortedKeys(byRegion[region]) {
			g.Zones = append(g.Zones, ZoneGroup{Zone: z, Clusters: byRegion[region][z]})
		}
		out = append(out, g)
	}
	return out
}

func or(s, fallback string) string {
	if strings.TrimSpace(s) == "" {
		return fallback
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ageOf renders the time since t as kubectl does ("5m", "3d").
func ageOf(t time.Time) string {
	if t.IsZero() {
		return "unknown"
	}
	return duration.HumanDuration(time.Since(t))
}
