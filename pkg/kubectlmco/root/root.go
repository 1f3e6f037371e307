// Package root is the `kubectl mco` command: kubectl's connection flags
// for mco and one subcommand per verb. Run executes it as kubectl does:
// a failure is one "error: ..." line on stderr and exit code 1.
package root

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/mco-org/mco/pkg/kubectlmco/addon"
	"github.com/mco-org/mco/pkg/kubectlmco/clients"
	"github.com/mco-org/mco/pkg/kubectlmco/cmderr"
	"github.com/mco-org/mco/pkg/kubectlmco/dashboard"
	"github.com/mco-org/mco/pkg/kubectlmco/get"
	"github.com/mco-org/mco/pkg/kubectlmco/interpret"
	"github.com/mco-org/mco/pkg/kubectlmco/join"
	"github.com/mco-org/mco/pkg/kubectlmco/preview"
	"github.com/mco-org/mco/pkg/kubectlmco/rebalance"
	"github.com/mco-org/mco/pkg/kubectlmco/register"
	"github.com/mco-org/mco/pkg/kubectlmco/rollout"
	"github.com/mco-org/mco/pkg/kubectlmco/token"
	"github.com/mco-org/mco/pkg/kubectlmco/unjoin"
	"github.com/mco-org/mco/pkg/kubectlmco/unregister"
	"github.com/mco-org/mco/pkg/version"
)

// NewCommand returns `kubectl mco` with its subcommands.
func NewCommand(streams genericiooptions.IOStreams) *cobra.Command {
	f := clients.NewFactory()
	cmd := &cobra.Command{
		Use:   "kubectl-mco",
		Short: "Join member clusters to mco, see them and what runs in them, preview placements",
		Long: `kubectl mco works with mco, the multi-cluster orchestrator. It reaches mco with
kubectl's own flags and kubeconfig (--kubeconfig, --context, -n, ...).`,
		Annotations:   map[string]string{cobra.CommandDisplayNameAnnotation: "kubectl mco"},
		SilenceErrors: true,
		SilenceUsage:  true,
		// Without a verb, help (and no failure).
		Run: func(cmd *cobra.Command, _ []string) { _ = cmd.Help() },
		// --version prints the version, as every mco binary does.
		Version: version.Get().String(),
	}
	cmd.SetVersionTemplate("kubectl-mco {{.Version}}\n")
	cmd.SetIn(streams.In)
	cmd.SetOut(streams.Out)
	cmd.SetErr(streams.ErrOut)
	// A flag error is a plain error line, not a usage dump.
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return fmt.Errorf("%w (see '%s --help')", err, c.CommandPath())
	})
	f.Flags.AddFlags(cmd.PersistentFlags())
	cmd.AddCommand(
		join.NewCommand(f, streams),
		unjoin.NewCommand(f, streams),
		token.NewCommand(f, streams),
		register.NewCommand(streams),
		unregister.NewCommand(f, streams),
		get.NewCommand(f, streams),
		preview.NewCommand(f, streams),
		interpret.NewCommand(streams),
		rollout.NewCommand(f, streams),
		rebalance.NewCommand(f, streams),
		dashboard.NewCommand(f, streams),
		addon.NewCommand(f, streams),
	)
	return cmd
}

// Run executes the command with args and returns the exit code: 0, or 1
// after printing "error: <message>" to stderr.
func Run(ctx context.Context, args []string, streams genericiooptions.IOStreams) int {
	cmd := NewCommand(streams)
	cmd.SetArgs(args)
	if err := cmd.ExecuteContext(ctx); err != nil {
		if !errors.Is(err, cmderr.Reported) {
			fmt.Fprintln(streams.ErrOut, Message(err))
		}
		return 1
	}
	return 0
}

// Message is the "error: ..." line for err. Messages from servers may span
// lines (RBAC lists the rules it would not grant); their lines are joined
// with "; " so that the error stays one line.
func Message(err error) string {
	var lines []string
	for _, line := range strings.Split(err.Error(), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			lines = append(lines, line)
		}
	}
	return "error: " + strings.Join(lines, "; ")
}
