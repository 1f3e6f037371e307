package localcluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/mco-org/mco/pkg/agent/access"
	"github.com/mco-org/mco/pkg/kubeconfig"
)

// agentTokenTTL is how long the agents' credentials on mco last here.
const agentTokenTTL = 24 * time.Hour

// startAgent registers a Pull member: it gives the member's agent its
// identity on mco (as an admin's `kubectl mco token create` does), writes
// the agent's kubeconfig for mco and starts mco-agent, which registers
// the Cluster itself. admin reaches mco as its admin.
func (e *Env) startAgent(ctx context.Context, m *Member, admin *rest.Config) error {
	kube, err := kubernetes.NewForConfig(admin)
	if err != nil {
		return err
	}
	name := m.Spec.Name
	if err := access.Ensure(ctx, kube, name); err != nil {
		return err
	}
	token, _, err := access.Token(ctx, kube, name, agentTokenTTL)
	if err != nil {
		return err
	}
	m.AgentKubeconfig = filepath.Join(e.Dir, "agents", name+".kubeconfig")
	if err := os.MkdirAll(filepath.Dir(m.AgentKubeconfig), 0o700); err != nil {
		return err
	}
	ca := admin.CAData
	if len(ca) == 0 {
		if ca, err = os.ReadFile(admin.CAFile); err != nil {
			return fmt.Errorf("CA of mco: %w", err)
		}
	}
	if err := kubeconfig.WriteToken(m.AgentKubeconfig, "mco", admin.Host, ca, token); err != nil {
		return err
	}
	return e.StartAgent(ctx, m)
}

// StartAgent starts (or starts again) a Pull member's mco-agent with the
// credential written for it (in AgentSecret when set), and waits until it
// is connected to mco.
func (e *Env) StartAgent(ctx context.Context, m *Member) error {
	c, err := startClientComponent(ctx, "mco-agent", e.BinDir, m.Kubeconfig, filepath.Join(e.Dir, "logs", m.Spec.Name), agentArgs(m, e.Timing))
	if c != nil {
		m.Agent, m.AgentPort = c.Process, c.Port
	}
	if err != nil {
		return fmt.Errorf("agent of %s: %w", m.Spec.Name, err)
	}
	return e.save()
}

// agentArgs are mco-agent's flags here: the member's identity, and the
// environment's timing.
func agentArgs(m *Member, timing Timing) []string {
	credential := "--mco-kubeconfig=" + m.AgentKubeconfig
	if m.AgentSecret != "" {
		credential = "--mco-kubeconfig-secret=" + m.AgentSecret
	}
	args := append([]string{
		credential,
		"--cluster-name=" + m.Spec.Name,
		"--cluster-region=" + m.Spec.Region,
		"--cluster-zones=" + m.Spec.Zone,
		clientQPS, clientBurst,
	}, timing.agentFlags()...)
	if len(m.Spec.Labels) > 0 {
		var labels []string
		for k, v := range m.Spec.Labels {
			labels = append(labels, k+"="+v)
		}
		sort.Strings(labels)
		args = append(args, "--cluster-labels="+strings.Join(labels, ","))
	}
	return args
}
