package get

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/rest"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/kubectlmco/clients"
)

// targetClusters returns the clusters to read from: those named by
// --clusters, or else every Ready Push Cluster on mco. Named clusters mco
// does not have, or does not dial (Pull), get a warning.
func (o *options) targetClusters(ctx context.Context, mco mcoclient.Interface, errOut io.Writer) ([]string, error) {
	all, err := listClusters(ctx, mco, nil, "")
	if err != nil {
		return nil, err
	}
	var out []string
	if len(o.clusters) > 0 {
		known := map[string]*clusterv1alpha1.Cluster{}
		for i := range all {
			known[all[i].Name] = &all[i]
		}
		for _, name := range o.clusters {
			switch c, ok := known[name]; {
			case !ok:
				fmt.Fprintf(errOut, "warning: cluster %s: no such Cluster on mco\n", name)
				continue
			case c.Spec.SyncMode == clusterv1alpha1.Pull:
				fmt.Fprintf(errOut, "warning: cluster %s is in Pull mode: mco does not dial it, so its objects cannot be read through mco\n", name)
				continue
			}
			out = append(out, name)
		}
		sort.Strings(out)
		return out, nil
	}
	for _, c := range all {
		// Pull clusters are left out: mco does not dial them.
		if c.Spec.SyncMode != clusterv1alpha1.Pull && meta.IsStatusConditionTrue(c.Status.Conditions, clusterv1alpha1.ClusterConditionReady) {
			out = append(out, c.Name)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no Push Cluster on mco is Ready (kubectl mco get clusters)")
	}
	return out, nil
}

// memberResult is one member's answer or failure.
type memberResult struct {
	cluster string
	answer  *answer
	err     error
}

// fetchAll asks every cluster, through mco's cluster proxy, at once.
func fetchAll(ctx context.Context, mco *rest.Config, clusters []string, q query) []memberResult {
	results := make([]memberResult, len(clusters))
	var wg sync.WaitGroup
	for i, name := range clusters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, err := fetch(ctx, clients.ProxyConfig(mco, name), q)
			results[i] = memberResult{cluster: name, answer: a, err: err}
		}()
	}
	wg.Wait()
	return results
}

// runMembers prints the kind's objects from the member clusters.
func (o *options) runMembers(ctx context.Context, mcoConfig *rest.Config, mco mcoclient.Interface, kind string, names []string, out, errOut io.Writer) error {
	if o.output == "name" {
		return errors.New("-o name cannot say which cluster an object is in: use -o wide, yaml or json")
	}
	clusters, err := o.targetClusters(ctx, mco, errOut)
	if err != nil {
		return err
	}
	q := query{kind: kind, names: names, selector: o.selector, table: o.objectPrinter == nil}
	if !o.allNamespaces {
		q.namespace = o.namespace
	}
	results := fetchAll(ctx, mcoConfig, clusters, q)
	var tables []memberTable
	var objects []memberObjects
	answered, namespaced := 0, false
	found := map[string]bool{}
	for _, r := range results {
		if r.err != nil {
			fmt.Fprintf(errOut, "warning: cluster %s: %s\n", r.cluster, oneLine(r.err))
			continue
		}
		answered++
		namespaced = namespaced || r.answer.namespaced
		for _, name := range names {
			if !slices.Contains(r.answer.missing, name) {
				found[name] = true
			}
		}
		if r.answer.table != nil {
			tables = append(tables, memberTable{cluster: r.cluster, table: r.answer.table})
		}
		objects = append(objects, memberObjects{cluster: r.cluster, objects: r.answer.objects})
	}
	if answered == 0 {
		return fmt.Errorf("none of the clusters (%s) answered", strings.Join(clusters, ", "))
	}
	var missing []string
	for _, name := range names {
		if !found[name] {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%s %s not found in any of the clusters (%s)", kind, strings.Join(missing, ", "), strings.Join(clusters, ", "))
	}
	if o.objectPrinter != nil {
		return printObjects(o.objectPrinter, annotated(objects), len(names) == 1, out)
	}
	table := mergeTables(tables, o.allNamespaces && namespaced)
	if len(table.Rows) == 0 {
		if o.allNamespaces || !namespaced {
			fmt.Fprintln(errOut, "No resources found")
		} else {
			fmt.Fprintf(errOut, "No resources found in %s namespace.\n", q.namespace)
		}
		return nil
	}
	return o.printTable(table, out)
}

// oneLine keeps a member's error on one line.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
