// Package dashboard is `kubectl mco dashboard`: a web view of clusters and
// workloads served on 127.0.0.1 with the user's own credentials.
package dashboard

import (
	"fmt"
	"os/exec"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/mco-org/mco/pkg/dashboard"
	"github.com/mco-org/mco/pkg/kubectlmco/clients"
)

type flags struct {
	port int
	open bool
}

// NewCommand returns `kubectl mco dashboard`.
func NewCommand(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	fl := &flags{}
	cmd := &cobra.Command{
		Use:   "dashboard [--port N] [--open]",
		Short: "Serve a web view of clusters and workloads on 127.0.0.1, with your credentials",
		Long: `dashboard serves pages of mco's clusters and workloads on 127.0.0.1 until Ctrl-C.
It talks to mco with your kubeconfig, as kubectl does: RBAC applies, and you see only
what you may read. The printed link carries a session token; other web pages cannot
use the dashboard, and nothing new is exposed on mco.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := f.RESTConfig()
			if err != nil {
				return err
			}
			ns, err := f.Namespace()
			if err != nil {
				return err
			}
			src, err := dashboard.NewLiveSource(cmd.Context(), cfg, ns)
			if err != nil {
				return fmt.Errorf("mco at %s: %w", cfg.Host, err)
			}
			if err := src.Start(cmd.Context(), time.Minute); err != nil {
				return err
			}
			opts := dashboard.Options{User: user(f), Server: cfg.Host}
			return dashboard.Serve(cmd.Context(), src, opts, fl.port, streams.Out, func(url string) {
				if fl.open {
					openBrowser(url, streams)
				}
			})
		},
	}
	cmd.Flags().IntVar(&fl.port, "port", 8765, "Port on 127.0.0.1 to serve on (0: any free port).")
	cmd.Flags().BoolVar(&fl.open, "open", false, "Open the dashboard in a browser, where one exists (xdg-open or open).")
	return cmd
}

// user names the kubeconfig's user for the pages' footer.
func user(f *clients.Factory) string {
	raw, err := f.Flags.ToRawKubeConfigLoader().RawConfig()
	if err != nil {
		return "you"
	}
	ctx := raw.CurrentContext
	if f.Flags.Context != nil && *f.Flags.Context != "" {
		ctx = *f.Flags.Context
	}
	if c, ok := raw.Contexts[ctx]; ok && c.AuthInfo != "" {
		return c.AuthInfo
	}
	return "you"
}

// openBrowser starts the desktop's browser on url, if there is one.
func openBrowser(url string, streams genericiooptions.IOStreams) {
	for _, opener := range []string{"xdg-open", "open"} {
		if path, err := exec.LookPath(opener); err == nil {
			if err := exec.Command(path, url).Start(); err == nil {
				return
			}
		}
	}
	fmt.Fprintln(streams.ErrOut, "no browser found (xdg-open, open): open the link above yourself")
}
