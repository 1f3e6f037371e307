package get

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/duration"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
)

// isClusters tells whether the kind argument names mco's Clusters.
func isClusters(kind string) bool {
	switch strings.ToLower(kind) {
	case "cluster", "clusters", "cluster.cluster.karmada.io", "clusters.cluster.karmada.io":
		return true
	}
	return false
}

// listClusters returns the named Clusters (all matching selector when no
// names are given), sorted by name.
func listClusters(ctx context.Context, mco mcoclient.Interface, names []string, selector string) ([]clusterv1alpha1.Cluster, error) {
	api := mco.ClusterV1alpha1().Clusters()
	if len(names) == 0 {
		list, err := api.List(ctx, metav1.ListOptions{LabelSelector: selector})
		if err != nil {
			return nil, fmt.Errorf("list clusters on mco: %w", err)
		}
		sort.Slice(list.Items, func(i, j int) bool { return list.Items[i].Name < list.Items[j].Name })
		return list.Items, nil
	}
	out := make([]clusterv1alpha1.Cluster, 0, len(names))
	for _, name := range names {
		c, err := api.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return nil, fmt.Errorf("get cluster %s on mco: %w", name, err)
		}
		out = append(out, *c)
	}
	return out, nil
}

// runClusters prints mco's Clusters as a table or, with a printer, as
// objects.
func (o *options) runClusters(ctx context.Context, mco mcoclient.Interface, names []string, out, errOut io.Writer) error {
	clusters, err := listClusters(ctx, mco, names, o.selector)
	if err != nil {
		return err
	}
	if o.objectPrinter != nil {
		objs := make([]runtime.Object, len(clusters))
		for i := range clusters {
			c := clusters[i].DeepCopy()
			c.SetGroupVersionKind(clusterv1alpha1.SchemeGroupVersion.WithKind(clusterv1alpha1.ResourceKindCluster))
			objs[i] = c
		}
		return printObjects(o.objectPrinter, objs, len(names) == 1, out)
	}
	if len(clusters) == 0 {
		fmt.Fprintln(errOut, "No resources found")
		return nil
	}
	return o.printTable(clusterTable(clusters, time.Now()), out)
}

// clusterColumns are the columns of `get clusters`; the last two show
// with -o wide.
var clusterColumns = []metav1.TableColumnDefinition{
	{Name: "Name", Type: "string"},
	{Name: "Version", Type: "string"},
	{Name: "Mode", Type: "string"},
	{Name: "Ready", Type: "string"},
	{Name: "Region", Type: "string"},
	{Name: "Zone", Type: "string"},
	{Name: "Nodes", Type: "string", Description: "Ready nodes / all nodes"},
	{Name: "CPU", Type: "string", Description: "Allocatable / free cores"},
	{Name: "Memory", Type: "string", Description: "Allocatable / free memory"},
	{Name: "Taints", Type: "string"},
	{Name: "Age", Type: "string"},
	{Name: "Provider", Type: "string", Priority: 1},
	{Name: "Endpoint", Type: "string", Priority: 1},
}

// clusterTable renders the Clusters, their ages taken at now.
func clusterTable(clusters []clusterv1alpha1.Cluster, now time.Time) *metav1.Table {
	t := &metav1.Table{ColumnDefinitions: clusterColumns}
	for i := range clusters {
		c := &clusters[i]
		free := freeResources(c.Status.ResourceSummary)
		t.Rows = append(t.Rows, metav1.TableRow{Cells: []any{
			c.Name,
			orDash(c.Status.KubernetesVersion),
			orDash(string(c.Spec.SyncMode)),
			readyStatus(c),
			orDash(c.Spec.Region),
			zones(c),
			nodes(c.Status.NodeSummary),
			free.cpu(),
			free.memory(),
			taints(c.Spec.Taints),
			age(c.CreationTimestamp, now),
			orDash(c.Spec.Provider),
			orDash(c.Spec.APIEndpoint),
		}})
	}
	return t
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// readyStatus is the status of the Ready condition, Unknown when absent.
func readyStatus(c *clusterv1alpha1.Cluster) string {
	if cond := meta.FindStatusCondition(c.Status.Conditions, clusterv1alpha1.ClusterConditionReady); cond != nil {
		return string(cond.Status)
	}
	return string(metav1.ConditionUnknown)
}

func zones(c *clusterv1alpha1.Cluster) string {
	if len(c.Spec.Zones) > 0 {
		return strings.Join(c.Spec.Zones, ",")
	}
	return orDash(c.Spec.Zone)
}

// nodes is "ready/total" from the node summary.
func nodes(s *clusterv1alpha1.NodeSummary) string {
	if s == nil {
		return "-"
	}
	return fmt.Sprintf("%d/%d", s.ReadyNum, s.TotalNum)
}

// taints shows the first taint as key=value:effect and counts the others:
// "dedicated=gpu:NoSchedule +2".
func taints(ts []corev1.Taint) string {
	switch len(ts) {
	case 0:
		return "<none>"
	case 1:
		return ts[0].ToString()
	}
	return fmt.Sprintf("%s +%d", ts[0].ToString(), len(ts)-1)
}

func age(created metav1.Time, now time.Time) string {
	if created.IsZero() {
		return "<unknown>"
	}
	return duration.HumanDuration(now.Sub(created.Time))
}
