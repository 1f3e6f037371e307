package dashboard

import (
	"net/url"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/names"
)

// pageSize is how many workloads a page lists.
const pageSize = 50

// Filter narrows the Workloads page; empty fields match everything.
type Filter struct {
	Namespace, Cluster, Kind, Query string
	// Labels is a label selector on the templates' labels.
	Labels string
	Page   int
	// Error says why the filter could not be applied.
	Error string
	// keep, when set, is the label selector's verdict on a binding.
	keep func(*Binding) bool
}

// filterOf reads a filter from a request's query.
func filterOf(q url.Values) Filter {
	f := Filter{Namespace: q.Get("namespace"), Cluster: q.Get("cluster"), Kind: q.Get("kind"), Query: strings.TrimSpace(q.Get("q")),
		Labels: strings.TrimSpace(q.Get("labels"))}
	f.Page, _ = strconv.Atoi(q.Get("page"))
	f.Page = max(f.Page, 1)
	return f
}

// QueryFor is the filter as a query string, for another page.
func (f Filter) QueryFor(page int) string {
	v := url.Values{}
	for k, s := range map[string]string{"namespace": f.Namespace, "cluster": f.Cluster, "kind": f.Kind, "q": f.Query, "labels": f.Labels} {
		if s != "" {
			v.Set(k, s)
		}
	}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	return v.Encode()
}

// Share is a cluster's part of a placement.
type Share struct {
	Cluster  string
	Replicas int32
	Percent  int
}

// WorkloadRow is one workload on the Workloads page.
type WorkloadRow struct {
	Kind, APIVersion, Namespace, Name string
	Policy                            string
	Replicas                          int32
	Placement                         []Share
	Status                            Health
	// Evicting lists the clusters a failover is moving it off.
	Evicting []string
}

// Link is the path of the workload's own page.
func (r WorkloadRow) Link() string {
	ns := r.Namespace
	if ns == "" {
		ns = "-"
	}
	return "/workloads/" + url.PathEscape(ns) + "/" + url.PathEscape(names.Binding(r.Kind, r.Name))
}

// WorkloadsPage is the view model of the Workloads page.
type WorkloadsPage struct {
	Rows                 []WorkloadRow
	Filter               Filter
	Namespaces, Clusters []string
	Kinds                []string
	Total, Pages         int
}

// workloadsPage lists the workloads that pass the filter, one page of
// them, sorted by namespace, kind and name.
func workloadsPage(s *Snapshot, f Filter) WorkloadsPage {
	p := WorkloadsPage{Filter: f}
	namespaces, kinds := map[string]bool{}, map[string]bool{}
	var matched []*Binding
	for _, b := range s.Bindings {
		if b.Namespace != "" {
			namespaces[b.Namespace] = true
		}
		kinds[b.Spec.Resource.Kind] = true
		if matches(b, f) {
			matched = append(matched, b)
		}
	}
	sort.Slice(matched, func(i, j int) bool {
		a, b := matched[i], matched[j]
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		if a.Spec.Resource.Kind != b.Spec.Resource.Kind {
			return a.Spec.Resource.Kind < b.Spec.Resource.Kind
		}
		return a.Spec.Resource.Name < b.Spec.Resource.Name
	})
	p.Total = len(matched)
	p.Pages = max(1, (p.Total+pageSize-1)/pageSize)
	p.Filter.Page = min(f.Page, p.Pages)
	start := (p.Filter.Page - 1) * pageSize
	for _, b := range matched[start:min(start+pageSize, len(matched))] {
		p.Rows = append(p.Rows, workloadRow(b))
	}
	p.Namespaces, p.Kinds = sortedKeys(namespaces), sortedKeys(kinds)
	for _, c := range s.Clusters {
		p.Clusters = append(p.Clusters, c.Name)
	}
	sort.Strings(p.Clusters)
	return p
}

func matches(b *Binding, f Filter) bool {
	if f.Namespace != "" && b.Namespace != f.Namespace || f.Kind != "" && b.Spec.Resource.Kind != f.Kind {
		return false
	}
	if f.Query != "" && !strings.Contains(strings.ToLower(b.Spec.Resource.Name), strings.ToLower(f.Query)) {
		return false
	}
	if f.keep != nil && !f.keep(b) {
		return false
	}
	if f.Cluster != "" {
		for _, t := range b.Spec.Clusters {
			if t.Name == f.Cluster {
				return true
			}
		}
		return false
	}
	return true
}

func workloadRow(b *Binding) WorkloadRow {
	r := b.Spec.Resource
	row := WorkloadRow{Kind: r.Kind, APIVersion: r.APIVersion, Namespace: r.Namespace, Name: r.Name,
		Policy: policyOf(b), Replicas: b.Spec.Replicas, Status: bindingHealth(b.Status)}
	var total int32
	for _, t := range b.Spec.Clusters {
		total += t.Replicas
	}
	for _, t := range b.Spec.Clusters {
		s := Share{Cluster: t.Name, Replicas: t.Replicas}
		if total > 0 {
			s.Percent = int(t.Replicas * 100 / total)
		} else {
			s.Percent = 100 / len(b.Spec.Clusters)
		}
		row.Placement = append(row.Placement, s)
	}
	for _, e := range b.Spec.GracefulEvictionTasks {
		row.Evicting = append(row.Evicting, e.FromCluster)
	}
	return row
}

// policyOf names the policy that claimed the workload.
func policyOf(b *Binding) string {
	if n := b.Annotations[policyv1alpha1.ClusterPropagationPolicyAnnotation]; n != "" {
		return "ClusterPropagationPolicy " + n
	}
	if n := b.Annotations[policyv1alpha1.PropagationPolicyNameAnnotation]; n != "" {
		return "PropagationPolicy " + n
	}
	return ""
}

// bindingHealth sums a binding up: not scheduled, applied everywhere and
// healthy, or what holds it back.
func bindingHealth(st *workv1alpha2.ResourceBindingStatus) Health {
	if c := meta.FindStatusCondition(st.Conditions, workv1alpha2.Scheduled); c != nil && c.Status != metav1.ConditionTrue {
		return Health{State: "NotScheduled", Reason: c.Reason, Message: c.Message}
	}
	if c := meta.FindStatusCondition(st.Conditions, workv1alpha2.FullyApplied); c != nil && c.Status != metav1.ConditionTrue {
		return Health{State: "NotApplied", Reason: c.Reason, Message: c.Message}
	}
	unhealthy := []string{}
	for _, a := range st.AggregatedStatus {
		if a.Health == workv1alpha2.ResourceUnhealthy {
			unhealthy = append(unhealthy, a.ClusterName)
		}
	}
	if len(unhealthy) > 0 {
		return Health{State: "Unhealthy", Reason: "Unhealthy", Message: "unhealthy in " + strings.Join(unhealthy, ", ")}
	}
	if len(st.AggregatedStatus) == 0 {
		return Health{State: "Unknown", Reason: "NoStatus", Message: "no member has reported yet"}
	}
	return Health{State: "Healthy", Reason: "Healthy", Message: "applied and healthy where placed"}
}

// Width is the share's width class, its percent to the nearest 5.
func (s Share) Width() int {
	return (s.Percent + 2) / 5 * 5
}
