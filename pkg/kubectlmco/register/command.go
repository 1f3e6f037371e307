// Package register is `kubectl mco register`: on the member's side, it
// exchanges a bootstrap credential for the agent's own and installs
// mco-agent in the member, which registers the member as a Pull Cluster.
package register

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	clustervalidation "github.com/mco-org/mco/pkg/apis/cluster/validation"
	"github.com/mco-org/mco/pkg/images"
	"github.com/mco-org/mco/pkg/kubectlmco/clients"
	lib "github.com/mco-org/mco/pkg/register"
	"github.com/mco-org/mco/pkg/version"
)

type flags struct {
	bootstrap             string
	server, token, caFile string
	kubeconfig, context   string
	provider, region      string
	zones                 []string
	labels                map[string]string
	opts                  lib.Options
	noDeployment          bool
}

// NewCommand returns `kubectl mco register`.
func NewCommand(streams genericiooptions.IOStreams) *cobra.Command {
	fl := flags{opts: lib.Options{Namespace: lib.DefaultNamespace, CredentialTTL: lib.DefaultCredentialTTL}}
	tag, _ := images.Tag("mco-agent", version.Get().GitVersion)
	fl.opts.Image = tag.String()
	cmd := &cobra.Command{
		Use:   "register NAME (--bootstrap-kubeconfig FILE | --mco-server URL --token TOKEN --mco-ca-file FILE) --cluster-kubeconfig FILE",
		Short: "Register a member cluster with mco in Pull mode, from the member's side",
		Long: `register exchanges the bootstrap credential of kubectl mco token create for the agent's own
(a token of mco lasting --credential-ttl, which the agent renews before it expires), and installs
mco-agent in the member: namespace --namespace with the credential in Secret mco-agent, the
ServiceAccount mco-agent bound to cluster-admin (the agent applies what mco's Works carry), and
the agent's Deployment. The agent registers the Cluster NAME in Pull mode once it runs.

mco never dials a Pull member: the agent pulls its Works, and the cluster proxy does not
reach it. Remove it with kubectl mco unregister.`,
		Example: `  kubectl mco register edge-1 --bootstrap-kubeconfig edge-1-bootstrap.kubeconfig --cluster-kubeconfig edge-1.kubeconfig --region eu-west`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := fl.complete(args); err != nil {
				return err
			}
			bootstrap, err := fl.bootstrapConfig()
			if err != nil {
				return err
			}
			memberCfg, err := clients.MemberConfig(fl.kubeconfig, fl.context)
			if err != nil {
				return err
			}
			member, err := kubernetes.NewForConfig(clients.WithMemberTimeout(memberCfg))
			if err != nil {
				return fmt.Errorf("client of the member: %w", err)
			}
			fl.opts.Progress = func(step string) { fmt.Fprintf(streams.Out, "- %s\n", step) }
			if err := lib.Register(cmd.Context(), bootstrap, member, fl.opts); err != nil {
				return err
			}
			if fl.opts.Image == "" {
				fmt.Fprintf(streams.Out, "Credential stored in the member; run the agent there with:\n  mco-agent %s\n", strings.Join(lib.AgentArgs(fl.opts), " "))
				return nil
			}
			fmt.Fprintf(streams.Out, "Agent installed: Deployment %s/%s registers cluster %s once it runs (kubectl mco get clusters)\n", fl.opts.Namespace, lib.AgentName, fl.opts.Cluster)
			return nil
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&fl.bootstrap, "bootstrap-kubeconfig", "", "Bootstrap kubeconfig written by kubectl mco token create --bootstrap-kubeconfig.")
	fs.StringVar(&fl.server, "mco-server", "", "Address of mco-apiserver (with --token and --mco-ca-file, instead of --bootstrap-kubeconfig).")
	fs.StringVar(&fl.token, "token", "", "Bootstrap token printed by kubectl mco token create.")
	fs.StringVar(&fl.caFile, "mco-ca-file", "", "PEM CA that signs mco-apiserver's serving certificate.")
	fs.StringVar(&fl.kubeconfig, "cluster-kubeconfig", "", "Kubeconfig file of the member cluster (required).")
	fs.StringVar(&fl.context, "cluster-context", "", "Context of the member in --cluster-kubeconfig (default: its current context).")
	fs.StringVar(&fl.opts.Namespace, "namespace", fl.opts.Namespace, "Namespace of the agent in the member.")
	fs.DurationVar(&fl.opts.CredentialTTL, "credential-ttl", fl.opts.CredentialTTL, "Lifetime of the agent's own credential; the agent renews it after 80% of it.")
	fs.StringVar(&fl.opts.Image, "agent-image", fl.opts.Image, "Image of mco-agent.")
	fs.BoolVar(&fl.noDeployment, "no-deployment", false, "Store the credential only and print the agent's flags, to run it yourself.")
	fs.StringVar(&fl.provider, "provider", "", "Cloud provider of the member (spec.provider).")
	fs.StringVar(&fl.region, "region", "", "Region of the member (spec.region).")
	fs.StringSliceVar(&fl.zones, "zone", nil, "Zone of the member (spec.zones); repeat or separate with commas for several.")
	fs.StringToStringVar(&fl.labels, "labels", nil, "Labels of the Cluster, as k=v,k2=v2.")
	return cmd
}

// complete takes the name, checks the flags and turns the Cluster's
// attributes into the agent's flags.
func (fl *flags) complete(args []string) error {
	if len(args) != 1 {
		return errors.New("register takes exactly one NAME, the cluster's name on mco")
	}
	fl.opts.Cluster = args[0]
	if msgs := clustervalidation.ValidateClusterName(fl.opts.Cluster, false); len(msgs) > 0 {
		return fmt.Errorf("invalid cluster name %q: %s", fl.opts.Cluster, msgs[0])
	}
	if fl.kubeconfig == "" {
		return errors.New("--cluster-kubeconfig is required: the kubeconfig file of the member cluster")
	}
	if (fl.bootstrap == "") == (fl.server == "" && fl.token == "") {
		return errors.New("give either --bootstrap-kubeconfig, or --mco-server with --token and --mco-ca-file")
	}
	if fl.bootstrap == "" && (fl.server == "" || fl.token == "" || fl.caFile == "") {
		return errors.New("--mco-server, --token and --mco-ca-file go together")
	}
	if fl.opts.CredentialTTL < time.Hour {
		return fmt.Errorf("--credential-ttl must be at least 1h, got %s", fl.opts.CredentialTTL)
	}
	if fl.noDeployment {
		fl.opts.Image = ""
	}
	for flag, v := range map[string]string{"--cluster-provider": fl.provider, "--cluster-region": fl.region} {
		if v != "" {
			fl.opts.AgentArgs = append(fl.opts.AgentArgs, flag+"="+v)
		}
	}
	if len(fl.zones) > 0 {
		fl.opts.AgentArgs = append(fl.opts.AgentArgs, "--cluster-zones="+strings.Join(fl.zones, ","))
	}
	if len(fl.labels) > 0 {
		var kv []string
		for k, v := range fl.labels {
			kv = append(kv, k+"="+v)
		}
		sort.Strings(kv)
		fl.opts.AgentArgs = append(fl.opts.AgentArgs, "--cluster-labels="+strings.Join(kv, ","))
	}
	sort.Strings(fl.opts.AgentArgs)
	return nil
}

// bootstrapConfig reaches mco with the bootstrap credential.
func (fl *flags) bootstrapConfig() (*rest.Config, error) {
	if fl.bootstrap != "" {
		if _, err := os.Stat(fl.bootstrap); err != nil {
			return nil, fmt.Errorf("bootstrap kubeconfig %s: %w", fl.bootstrap, err)
		}
		cfg, err := clientcmd.BuildConfigFromFlags("", fl.bootstrap)
		if err != nil {
			return nil, fmt.Errorf("bootstrap kubeconfig %s: %w", fl.bootstrap, err)
		}
		return cfg, nil
	}
	ca, err := os.ReadFile(fl.caFile)
	if err != nil {
		return nil, fmt.Errorf("--mco-ca-file: %w", err)
	}
	return &rest.Config{Host: fl.server, BearerToken: fl.token, TLSClientConfig: rest.TLSClientConfig{CAData: ca}}, nil
}
