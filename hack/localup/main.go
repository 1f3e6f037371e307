// Command localup brings up, inspects and tears down the local environment
// of `make local-up`: mco plus three real member clusters.
//
//	localup [--ha|--aggregated] up | down | status | pause M | resume M | stop M | start M
//	localup lb --listen ADDR --backend ADDR...   (the HA load balancer, in the foreground)
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/mco-org/mco/pkg/apiserver/pki"
	"github.com/mco-org/mco/pkg/kubeconfig"
	"github.com/mco-org/mco/pkg/testing/localcluster"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "localup:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("localup", flag.ContinueOnError)
	dir := fs.String("dir", "_output/local-up", "state, data and logs")
	bin := fs.String("bin-dir", "_output/bin", "binaries")
	ha := fs.Bool("ha", false, "up: a highly available control plane (3 etcd members, 2 mco-apiservers behind a load balancer, 2 of each component)")
	pull := fs.String("pull", "", "up: comma-separated members registered in Pull mode, served by a local mco-agent (e.g. member3)")
	versions := fs.String("versions", "", "up: members on other Kubernetes versions, comma-separated name=version (e.g. member2=v1.34.4); their binaries in BIN-DIR/kube-VERSION/")
	aggregated := fs.Bool("aggregated", false, "up: mco-apiserver in aggregated mode behind a host cluster's kube-apiserver, which every client and component goes through")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *ha && *aggregated {
		return fmt.Errorf("--ha and --aggregated are exclusive")
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("usage: localup [flags] up|down|status|pause|resume|stop|start [member] | lb --listen ADDR --backend ADDR...")
	}
	absDir, err := filepath.Abs(*dir)
	if err != nil {
		return err
	}
	absBin, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}
	verb, rest := fs.Arg(0), fs.Args()[1:]
	switch verb {
	case "up":
		return up(ctx, absDir, absBin, *ha, *aggregated, *pull, *versions)
	case "lb":
		return runLB(ctx, rest)
	case "down":
		env, err := localcluster.Load(absDir)
		if err != nil {
			fmt.Println("nothing to stop:", err)
			return nil
		}
		env.Down()
		fmt.Println("stopped every process of", absDir)
		return nil
	case "status":
		env, err := localcluster.Load(absDir)
		if err != nil {
			return err
		}
		for _, p := range env.Processes() {
			fmt.Printf("%-26s pid %-8d running=%v\n", p.Name, p.PID, p.Running())
		}
		return nil
	case "pause", "resume", "stop", "start":
		if len(rest) != 1 {
			return fmt.Errorf("%s needs a member name", verb)
		}
		return memberVerb(absDir, verb, rest[0])
	}
	return fmt.Errorf("unknown command %q", verb)
}

func up(ctx context.Context, dir, bin string, ha, aggregated bool, pull, versions string) error {
	if env, err := localcluster.Load(dir); err == nil {
		fmt.Println("stopping the previous environment first")
		env.Down()
	}
	start := time.Now()
	self, err := os.Executable()
	if err != nil {
		return err
	}
	members, err := localcluster.WithPull(localcluster.DefaultMembers(), pull)
	if err != nil {
		return err
	}
	if members, err = localcluster.WithVersions(members, versions); err != nil {
		return err
	}
	env, err := localcluster.Up(ctx, localcluster.Options{
		Dir: dir, BinDir: bin, Members: members, ControlPlane: true,
		HA: ha, LBCommand: []string{self, "lb"}, Aggregated: aggregated,
	})
	if err != nil {
		return fmt.Errorf("%w (logs in %s)", err, filepath.Join(dir, "logs"))
	}
	contexts := []kubeconfig.Context{{Name: "mco", Server: env.MCO.URL(), Files: pki.FilesIn(filepath.Join(env.MCO.DataDir, "pki"))}}
	if aggregated {
		// mco is reached through the host, with the host's admin.
		contexts = []kubeconfig.Context{{Name: "mco", Server: env.Host.URL(), Files: env.PKI.Files}}
	}
	for _, m := range env.Members {
		contexts = append(contexts, kubeconfig.Context{Name: m.Spec.Name, Server: m.URL(), Files: env.PKI.Files})
	}
	path := filepath.Join(dir, "kubeconfig")
	if err := kubeconfig.Write(path, contexts...); err != nil {
		return err
	}
	what := "mco (apiserver, scheduler, controller-manager)"
	switch {
	case aggregated:
		what = fmt.Sprintf("mco, aggregated behind a host cluster's kube-apiserver (context \"mco\", %s),", env.Host.URL())
	case ha:
		what = fmt.Sprintf("mco, highly available (3 etcd members, 2 apiservers behind %s, 2 schedulers, 2 controller-managers),", env.MCO.URL())
	}
	fmt.Printf(`
%s and %d member clusters are up (%.0fs). Logs: %s

  export KUBECONFIG=%s
  %s/kubectl get clusters                       # on mco (context "mco")
  %s/kubectl --context member1 get nodes        # a member
  %s/kubectl apply -f artifacts/examples/       # a Deployment and its policies, propagated to the members

Stop everything with: make local-down
`, what, len(env.Members), time.Since(start).Seconds(), filepath.Join(dir, "logs"), path, bin, bin, bin)
	return nil
}

func memberVerb(dir, verb, name string) error {
	env, err := localcluster.Load(dir)
	if err != nil {
		return err
	}
	m := env.Member(name)
	if m == nil {
		return fmt.Errorf("no member %q", name)
	}
	switch verb {
	case "pause":
		return m.APIServer.Pause()
	case "resume":
		return m.APIServer.Resume()
	case "stop":
		m.APIServer.Stop(10 * time.Second)
		return nil
	case "start":
		if m.APIServer.Running() {
			return fmt.Errorf("%s's kube-apiserver is running", name)
		}
		if err := m.APIServer.Restart(); err != nil {
			return err
		}
		return env.Save()
	}
	return nil
}
