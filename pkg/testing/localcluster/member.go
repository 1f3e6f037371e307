package localcluster

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"time"

	"github.com/mco-org/mco/pkg/kubeconfig"
)

// NodeSpec describes a group of identical fake nodes.
type NodeSpec struct {
	Count  int    `json:"count"`
	CPU    string `json:"cpu"`
	Memory string `json:"memory"`
	Pods   string `json:"pods"`
}

// MemberSpec describes one member cluster.
type MemberSpec struct {
	Name   string            `json:"name"`
	Region string            `json:"region"`
	Zone   string            `json:"zone"`
	Labels map[string]string `json:"labels,omitempty"`
	Nodes  []NodeSpec        `json:"nodes"`
	// APIServerArgs are extra flags of the member's kube-apiserver (the
	// aggregation layer's, for one that hosts mco-apiserver).
	APIServerArgs []string `json:"apiServerArgs,omitempty"`
	// Version is the Kubernetes version of the member's kube-apiserver,
	// kube-controller-manager and kube-scheduler, read from
	// BinDir/kube-<version>/; empty: mco's own, from BinDir.
	Version string `json:"version,omitempty"`
	// Pull registers the member in Pull mode: mco-agent runs next to it
	// (a local process) instead of mco reaching it.
	Pull bool `json:"pull,omitempty"`
}

// Member is a running member cluster.
type Member struct {
	Spec       MemberSpec `json:"spec"`
	Port       int        `json:"port"`
	Kubeconfig string     `json:"kubeconfig"`
	APIServer  *Process   `json:"apiServer"`
	Controller *Process   `json:"controllerManager"`
	Scheduler  *Process   `json:"scheduler"`
	Kwok       *Process   `json:"kwok"`
	// KwokPort is where kwok serves the nodes' kubelet endpoints (their
	// resource metrics); MetricsServer, on MetricsPort, is the member's
	// metrics.k8s.io.
	KwokPort      int      `json:"kwokPort,omitempty"`
	MetricsServer *Process `json:"metricsServer,omitempty"`
	MetricsPort   int      `json:"metricsPort,omitempty"`
	// Agent is the mco-agent of a Pull member, serving health and metrics
	// on AgentPort; AgentKubeconfig holds its credential for mco.
	Agent           *Process `json:"agent,omitempty"`
	AgentPort       int      `json:"agentPort,omitempty"`
	AgentKubeconfig string   `json:"agentKubeconfig,omitempty"`
	// AgentSecret, when set (NAMESPACE/NAME in the member, as kubectl mco
	// register writes it), is where the agent reads its credential
	// instead of AgentKubeconfig.
	AgentSecret string `json:"agentSecret,omitempty"`
}

// URL is the member's kube-apiserver address.
func (m *Member) URL() string { return fmt.Sprintf("https://127.0.0.1:%d", m.Port) }

// Processes lists the member's processes, the apiserver last so that the
// others stop first. A bare member has its apiserver only.
func (m *Member) Processes() []*Process {
	var out []*Process
	for _, p := range []*Process{m.MetricsServer, m.Kwok, m.Scheduler, m.Controller, m.APIServer} {
		if p != nil {
			out = append(out, p)
		}
	}
	return out
}

// kcmControllers keeps what a member needs for Deployments, Jobs and
// ServiceAccount tokens to work with fake nodes, and drops what needs real
// networking or storage.
const kcmControllers = "*,-node-ipam-controller,-persistentvolume-binder-controller,-persistentvolume-attach-detach-controller," +
	"-persistentvolume-expander-controller,-ephemeral-volume-controller"

// memberBinary is the path of one of a member's Kubernetes binaries, of
// its version (mco's own when version is empty).
func memberBinary(binDir, version, name string) string {
	if version == "" {
		return filepath.Join(binDir, name)
	}
	return filepath.Join(binDir, "kube-"+version, name)
}

// startMember runs the member's processes and waits until its apiserver is
// ready. Nodes are created by the caller once kwok runs. A bare member runs
// its apiserver only.
func startMember(ctx context.Context, env *Env, spec MemberSpec, bare bool) (*Member, error) {
	return retryOnPortClash(func() (*Member, error) { return startMemberOnce(ctx, env, spec, bare) })
}

// startMemberOnce is one attempt of startMember on a fresh port.
func startMemberOnce(ctx context.Context, env *Env, spec MemberSpec, bare bool) (*Member, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(env.Dir, "members", spec.Name)
	logDir := filepath.Join(env.Dir, "logs", spec.Name)
	m := &Member{Spec: spec, Port: port, Kubeconfig: filepath.Join(dir, "kubeconfig")}
	if err := kubeconfig.Write(m.Kubeconfig, kubeconfig.Context{Name: spec.Name, Server: m.URL(), Files: env.PKI.Files}); err != nil {
		return nil, err
	}
	bin := func(name string) string { return memberBinary(env.BinDir, spec.Version, name) }
	p := env.PKI
	// Every member can serve aggregated APIs (metrics-server's), with the
	// front proxy's PKI Start created.
	frontProxy, err := aggregatorArgs(frontProxyDir(env))
	if err != nil {
		return nil, err
	}
	m.APIServer, err = startProcess("kube-apiserver", bin("kube-apiserver"), append([]string{
		"--etcd-servers=" + env.EtcdURL,
		"--etcd-prefix=/" + spec.Name,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(port),
		"--endpoint-reconciler-type=none",
		"--authorization-mode=RBAC",
		"--client-ca-file=" + p.CACert,
		"--tls-cert-file=" + p.ServingCert,
		"--tls-private-key-file=" + p.ServingKey,
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + p.ServiceAccountKey,
		"--service-account-signing-key-file=" + p.ServiceAccountKey,
		"--service-cluster-ip-range=10.96.0.0/16",
		"--allow-privileged=true",
		"--profiling=false",
		"--cert-dir=" + filepath.Join(dir, "certs"),
		"--v=1",
	}, append(frontProxy, spec.APIServerArgs...)...), logDir)
	if err != nil {
		return nil, err
	}
	if err := waitHTTPS(ctx, m.URL()+"/readyz", env.PKI.Files, 90*time.Second, m.APIServer); err != nil {
		m.APIServer.Stop(5 * time.Second)
		return nil, portClash(fmt.Errorf("member %s: %w", spec.Name, err), m.APIServer)
	}
	if bare {
		return m, nil
	}
	m.Controller, err = startProcess("kube-controller-manager", bin("kube-controller-manager"), []string{
		"--kubeconfig=" + m.Kubeconfig,
		"--secure-port=0",
		"--leader-elect=false",
		"--controllers=" + kcmControllers,
		"--service-account-private-key-file=" + p.ServiceAccountKey,
		"--root-ca-file=" + p.CACert,
		"--use-service-account-credentials=false",
		"--node-monitor-grace-period=40s",
		"--profiling=false",
		"--v=1",
	}, logDir)
	if err != nil {
		return m, err
	}
	m.Scheduler, err = startProcess("kube-scheduler", bin("kube-scheduler"), []string{
		"--kubeconfig=" + m.Kubeconfig,
		"--secure-port=0",
		"--leader-elect=false",
		"--profiling=false",
		"--v=1",
	}, logDir)
	if err != nil {
		return m, err
	}
	// kwok serves the nodes' kubelet endpoints on one port, which the nodes
	// report (InternalIP 127.0.0.1, the kubelet port) for metrics-server.
	if m.KwokPort, err = freePort(); err != nil {
		return m, err
	}
	m.Kwok, err = startProcess("kwok", filepath.Join(env.BinDir, "kwok"), []string{
		"--kubeconfig=" + m.Kubeconfig,
		"--config=" + env.KwokStages,
		"--manage-all-nodes=false",
		"--manage-nodes-with-annotation-selector=" + fakeNodeAnnotation + "=fake",
		"--node-lease-duration-seconds=40",
		"--cidr=10.0.0.1/16",
		"--node-ip=127.0.0.1",
		"--node-port=" + strconv.Itoa(m.KwokPort),
		"--server-address=127.0.0.1:" + strconv.Itoa(m.KwokPort),
		"--tls-cert-file=" + p.ServingCert,
		"--tls-private-key-file=" + p.ServingKey,
		"--v=1",
	}, logDir)
	if err != nil {
		return m, err
	}
	if err := startMetricsServer(env, m, dir, logDir); err != nil {
		return m, err
	}
	return m, nil
}
