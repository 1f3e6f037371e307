// Package get is `kubectl mco get`: mco's Clusters with their capacity, or
// any kind's objects across the member clusters, read through mco's
// cluster proxy and merged into one table with a CLUSTER column.
package get

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/cli-runtime/pkg/printers"

	"github.com/mco-org/mco/pkg/kubectlmco/clients"
)

// options are get's flags, completed.
type options struct {
	printFlags    *genericclioptions.PrintFlags
	allNamespaces bool
	namespace     string
	selector      string
	clusters      []string
	noHeaders     bool
	// wide is -o wide; objectPrinter prints objects for the other -o
	// formats (nil: a table).
	wide          bool
	objectPrinter printers.ResourcePrinter
	// output is the -o value.
	output string
}

const long = `get lists mco's Clusters, or the objects of a kind in the member clusters.

get clusters shows, per Cluster: its Kubernetes version, sync mode, Ready condition,
region and zones, nodes (Ready/all), CPU and MEMORY as allocatable/free (free is
allocatable minus allocated minus allocating), taints and age; -o wide adds the
provider and API endpoint.

get KIND reads KIND in every Ready member (or those of --clusters) through mco's
cluster proxy, as you: each member resolves KIND by its own discovery and prints its
own columns, after a CLUSTER column. A member that fails gets a warning line and the
others still print. With -o yaml or json the objects come in one v1 List, each
annotated ` + ClusterAnnotation + `: <cluster>.`

// NewCommand returns `kubectl mco get`.
func NewCommand(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := &options{printFlags: genericclioptions.NewPrintFlags("")}
	cmd := &cobra.Command{
		Use:   "get clusters [NAME...] | get KIND [NAME...] [-n NAMESPACE | -A] [--clusters a,b] [-l SELECTOR]",
		Short: "List mco's clusters, or a kind's objects across the member clusters",
		Long:  long,
		Example: `  kubectl mco get clusters
  kubectl mco get deploy -A
  kubectl mco get pods -n shop -l app=web --clusters member1,member2 -o wide`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return errors.New("get needs a kind: clusters, or a kind of the members such as deployments")
			}
			if err := o.complete(f); err != nil {
				return err
			}
			kind, names := args[0], args[1:]
			if strings.Contains(kind, ",") || strings.Contains(kind, "/") {
				return fmt.Errorf("get takes one kind and names after it, not %q", kind)
			}
			cfg, err := f.RESTConfig()
			if err != nil {
				return err
			}
			cfg, watch := clients.Watched(cfg, "mco")
			_, mco, err := clients.MCO(cfg)
			if err != nil {
				return err
			}
			if isClusters(kind) {
				err = o.runClusters(cmd.Context(), mco, names, streams.Out, streams.ErrOut)
			} else {
				err = o.runMembers(cmd.Context(), cfg, mco, kind, names, streams.Out, streams.ErrOut)
			}
			return watch.Explain(cmd.Context(), err, "")
		},
	}
	o.printFlags.AddFlags(cmd)
	cmd.Flags().Lookup("output").Usage = "Output format: wide, or one of " + strings.Join(o.printFlags.AllowedFormats(), ", ") + "."
	fs := cmd.Flags()
	fs.BoolVarP(&o.allNamespaces, "all-namespaces", "A", false, "List the objects of every namespace.")
	fs.StringVarP(&o.selector, "selector", "l", "", "Label selector of the objects (or of the Clusters, for get clusters).")
	fs.StringSliceVar(&o.clusters, "clusters", nil, "Member clusters to read from (default: every Ready Cluster).")
	fs.BoolVar(&o.noHeaders, "no-headers", false, "Print the table without its header line.")
	return cmd
}

// complete reads the namespace and chooses the printer.
func (o *options) complete(f *clients.Factory) error {
	ns, err := f.Namespace()
	if err != nil {
		return err
	}
	o.namespace = ns
	o.output = *o.printFlags.OutputFormat
	switch o.output {
	case "":
		return nil
	case "wide":
		o.wide = true
		return nil
	}
	p, err := o.printFlags.ToPrinter()
	if err != nil {
		return err
	}
	o.objectPrinter = p
	return nil
}
