// Package preview is `kubectl mco preview`: where a workload would land now
// among the live Clusters on mco, and why not elsewhere, decided by the
// scheduler's own code (pkg/scheduler/plan).
package preview

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/printers"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/scheduler/plan"
)

// Run previews the placement of the workload and policy (or binding) in
// files against mco's Clusters and prints it to out as a table, or as
// output ("yaml" or "json"). Notes go to errOut. A workload that fits
// nowhere prints its table and returns the scheduler's reason.
func Run(ctx context.Context, mco mcoclient.Interface, files []string, output string, out, errOut io.Writer) error {
	if output != "" && output != plan.OutputYAML && output != plan.OutputJSON {
		return fmt.Errorf("unknown output format %q: use yaml or json, or no -o for a table", output)
	}
	if len(files) == 0 {
		return errors.New("no input files: give the workload and its PropagationPolicy (or a ResourceBinding) with -f")
	}
	docs, err := plan.ReadFiles(files)
	if err != nil {
		return err
	}
	for _, d := range docs {
		if _, ok := d.Object.(*clusterv1alpha1.Cluster); ok {
			return fmt.Errorf("%s: preview places against the Clusters on mco; leave Cluster objects out "+
				"(mco-scheduler plan previews against Clusters from files)", d.Source)
		}
	}
	clusters, err := liveClusters(ctx, mco)
	if err != nil {
		return err
	}
	p, err := plan.Schedule(ctx, clusters, docs, errOut)
	if p == nil {
		return err
	}
	if p.AffinityName != "" {
		fmt.Fprintf(errOut, "scheduled with the clusterAffinities term %q\n", p.AffinityName)
	}
	if output != "" {
		if werr := plan.Write(out, output, p); werr != nil {
			return werr
		}
		return err
	}
	if perr := printers.NewTablePrinter(printers.PrintOptions{}).PrintObj(Table(p), out); perr != nil {
		return fmt.Errorf("print the table: %w", perr)
	}
	return err
}

// liveClusters lists mco's Clusters.
func liveClusters(ctx context.Context, mco mcoclient.Interface) ([]*clusterv1alpha1.Cluster, error) {
	list, err := mco.ClusterV1alpha1().Clusters().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("list clusters on mco: %w", err)
	}
	if len(list.Items) == 0 {
		return nil, errors.New("mco has no Clusters to place on: join one with kubectl mco join")
	}
	out := make([]*clusterv1alpha1.Cluster, len(list.Items))
	for i := range list.Items {
		out[i] = &list.Items[i]
	}
	return out, nil
}

// Table has a row per cluster, by name: the replicas it gets ("selected"
// for a kind without replicas), or "-" and why it gets none.
func Table(p *plan.Placement) *metav1.Table {
	t := &metav1.Table{ColumnDefinitions: []metav1.TableColumnDefinition{
		{Name: "Cluster", Type: "string"},
		{Name: "Replicas", Type: "string"},
		{Name: "Reason", Type: "string"},
	}}
	for _, tc := range p.Clusters {
		replicas := "selected"
		if p.Replicas > 0 {
			replicas = strconv.Itoa(int(tc.Replicas))
		}
		t.Rows = append(t.Rows, metav1.TableRow{Cells: []any{tc.Name, replicas, ""}})
	}
	for _, e := range p.Excluded {
		reason := e.Reason
		if e.Plugin != "" {
			reason += " (" + e.Plugin + ")"
		}
		t.Rows = append(t.Rows, metav1.TableRow{Cells: []any{e.Cluster, "-", reason}})
	}
	sort.SliceStable(t.Rows, func(i, j int) bool { return t.Rows[i].Cells[0].(string) < t.Rows[j].Cells[0].(string) })
	return t
}
