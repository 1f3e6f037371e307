package join

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	clustervalidation "github.com/mco-org/mco/pkg/apis/cluster/validation"
	"github.com/mco-org/mco/pkg/kubectlmco/clients"
)

// flags are join's command-line flags.
type flags struct {
	kubeconfig, context string
	opts                Options
}

// NewCommand returns `kubectl mco join`.
func NewCommand(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	fl := flags{opts: Options{Wait: 2 * time.Minute}}
	cmd := &cobra.Command{
		Use:   "join NAME --cluster-kubeconfig FILE",
		Short: "Register a member cluster with mco (push mode)",
		Long: `join gives mco an identity in the member cluster (namespace karmada-cluster, service
accounts karmada-NAME and karmada-impersonator, their cluster roles and tokens), stores
the tokens on mco and writes the Cluster NAME with the member's API endpoint and CA, taken
from the member kubeconfig's context. Then it waits until mco reports the Cluster Ready.

Joining again updates what changed. A member already joined under another name is refused.`,
		Example: `  kubectl mco join member3 --cluster-kubeconfig member3.kubeconfig --region cn-south --zone cn-south-a
  kubectl mco join edge --cluster-kubeconfig ~/.kube/config --cluster-context edge --labels environment=production`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := fl.complete(args); err != nil {
				return err
			}
			member, err := clients.MemberConfig(fl.kubeconfig, fl.context)
			if err != nil {
				return err
			}
			mco, err := f.RESTConfig()
			if err != nil {
				return err
			}
			_, err = Run(cmd.Context(), mco, member, fl.opts, streams.Out)
			return err
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&fl.kubeconfig, "cluster-kubeconfig", "", "Kubeconfig file of the member cluster (required).")
	fs.StringVar(&fl.context, "cluster-context", "", "Context of the member in --cluster-kubeconfig (default: its current context).")
	fs.StringVar(&fl.opts.Provider, "provider", "", "Cloud provider of the member (spec.provider).")
	fs.StringVar(&fl.opts.Region, "region", "", "Region of the member (spec.region).")
	fs.StringSliceVar(&fl.opts.Zones, "zone", nil, "Zone of the member (spec.zones); repeat or separate with commas for several.")
	fs.StringToStringVar(&fl.opts.Labels, "labels", nil, "Labels of the Cluster, as k=v,k2=v2.")
	fs.BoolVar(&fl.opts.UseTokenRequest, "token-request", false,
		"Take mco's tokens from the member's TokenRequest API (for members without kube-controller-manager); such tokens expire after a year.")
	fs.DurationVar(&fl.opts.Wait, "wait", fl.opts.Wait, "How long to wait for mco to report the Cluster Ready; 0 does not wait.")
	return cmd
}

// complete takes the name and checks the flags.
func (fl *flags) complete(args []string) error {
	if len(args) != 1 {
		return errors.New("join takes exactly one NAME, the Cluster's name on mco")
	}
	fl.opts.Name = args[0]
	if msgs := clustervalidation.ValidateClusterName(fl.opts.Name, false); len(msgs) > 0 {
		return fmt.Errorf("invalid cluster name %q: %s", fl.opts.Name, msgs[0])
	}
	if fl.kubeconfig == "" {
		return errors.New("--cluster-kubeconfig is required: the kubeconfig file of the member cluster")
	}
	if errs := metav1validation.ValidateLabels(fl.opts.Labels, field.NewPath("--labels")); len(errs) > 0 {
		return errs.ToAggregate()
	}
	return nil
}
